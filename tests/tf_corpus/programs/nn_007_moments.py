import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
m, v = tf.nn.moments(x, axes=[0])
print(m, v)
m, v = tf.nn.moments(x, axes=[0, 1], keepdims=True)
print(m, v)
