import tensorflow as tf

a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[0.0, 1.0], [1.0, 0.0]])
print(a @ b)
print(tf.matmul(a, b, transpose_a=True))
