import tensorflow as tf

print(tf.constant([[1, 2], [3, 4]]))
print(tf.constant(3.5))
print(tf.constant([1.0, 2.0], dtype=tf.float64))
