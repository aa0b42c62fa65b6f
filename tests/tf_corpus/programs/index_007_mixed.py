import tensorflow as tf

x = tf.reshape(tf.range(60), [3, 4, 5])
print(x[1, :, ::2])
print(x[:, -1, 1:4])
print(x[..., tf.newaxis, 0].shape)
