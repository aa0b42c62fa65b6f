import tensorflow as tf

x = tf.constant([[1], [2]])
print(tf.expand_dims(x, 0).shape)
print(tf.expand_dims(x, -1).shape)
print(tf.squeeze(x))
print(tf.squeeze(tf.zeros([1, 2, 1, 3]), axis=[0]).shape)
