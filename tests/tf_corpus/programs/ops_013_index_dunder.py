import tensorflow as tf

n = tf.constant(3)
print([0, 1, 2, 3, 4][n])
print(list(range(n)))
