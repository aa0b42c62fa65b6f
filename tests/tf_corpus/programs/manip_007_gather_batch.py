import tensorflow as tf

x = tf.constant([[1, 2, 3], [4, 5, 6]])
print(tf.gather(x, [[0, 2], [1, 1]], axis=1, batch_dims=1))
