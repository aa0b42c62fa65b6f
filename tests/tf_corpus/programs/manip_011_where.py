import tensorflow as tf

c = tf.constant([True, False, True])
print(tf.where(c, tf.constant([1, 2, 3]), tf.constant([9, 9, 9])))
print(tf.where(c))
print(tf.where(tf.constant([[0, 1], [1, 0]]) > 0))
print(tf.where(tf.constant([1.0, -1.0]) > 0, 1.0, 0.0))
