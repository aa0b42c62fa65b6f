import tensorflow as tf

x = tf.reshape(tf.range(6), [2, 3])
print(tf.transpose(x))
y = tf.zeros([2, 3, 4])
print(tf.transpose(y, perm=[2, 0, 1]).shape)
print(tf.linalg.matrix_transpose(y).shape)
