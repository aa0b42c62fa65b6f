import tensorflow as tf

a = tf.constant([[3.0, 1.0], [1.0, 2.0]])
b = tf.constant([[9.0], [8.0]])
print(tf.linalg.solve(a, b))
print(tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 3.0]])))
