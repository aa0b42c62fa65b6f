import tensorflow as tf

tf.random.set_seed(2)
x = tf.random.uniform([1000], -1.0, 1.0)
print(bool(tf.reduce_all(x >= -1.0)), bool(tf.reduce_all(x < 1.0)))
print(x.shape, x.dtype)
