import tensorflow as tf

x = tf.constant([-1.0, 0.0, 1.0])
print(tf.nn.gelu(x))
print(tf.nn.gelu(x, approximate=True))
print(tf.nn.silu(x))
print(tf.nn.softsign(x))
print(tf.nn.swish(x))
