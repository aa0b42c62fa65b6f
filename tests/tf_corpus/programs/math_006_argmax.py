import tensorflow as tf

x = tf.constant([[3, 9, 1], [8, 2, 8]])
print(tf.argmax(x))
print(tf.argmax(x, axis=1))
print(tf.argmin(x, 1, output_type=tf.int32))
print(tf.math.argmax(tf.constant([1.0, 5.0, 5.0])))
