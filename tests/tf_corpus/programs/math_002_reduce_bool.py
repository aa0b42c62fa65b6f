import tensorflow as tf

b = tf.constant([[True, False], [True, True]])
print(tf.reduce_all(b), tf.reduce_any(b))
print(tf.reduce_all(b, axis=1))
print(tf.math.count_nonzero(tf.constant([0, 3, 0, 4])))
