import tensorflow as tf

x = tf.constant([1, 2, 3])
print(x[tf.newaxis])
print(x[:, tf.newaxis])
print(x[None, :, None].shape)
print(tf.newaxis)
