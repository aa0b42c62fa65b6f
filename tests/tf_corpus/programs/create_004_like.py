import tensorflow as tf

x = tf.constant([[1, 2], [3, 4]])
print(tf.zeros_like(x))
print(tf.ones_like(x, dtype=tf.float32))
print(tf.ones_like(tf.constant([True, False])))
