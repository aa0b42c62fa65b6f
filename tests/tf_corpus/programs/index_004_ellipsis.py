import tensorflow as tf

x = tf.reshape(tf.range(24), [2, 3, 4])
print(x[..., 0])
print(x[0, ...])
print(x[..., 1:3].shape)
