import tensorflow as tf

a = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3])
b = tf.reshape(tf.range(6, dtype=tf.float32), [3, 2])
print(tf.linalg.matmul(a, b))
print(tf.matmul(a, a, transpose_b=True))
