import tensorflow as tf

x = tf.constant([[1, 2], [3, 4]])
print(tf.pad(x, [[1, 0], [0, 2]]))
print(tf.pad(x, [[1, 1], [1, 1]], constant_values=9))
print(tf.pad(x, [[1, 1], [1, 1]], mode="REFLECT"))
print(tf.pad(x, [[1, 1], [1, 1]], mode="SYMMETRIC"))
