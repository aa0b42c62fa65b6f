import tensorflow as tf

a, b = tf.constant([1.0, 2.0])
print(a, b)
print(list(tf.constant([[1], [2]])))
