import tensorflow as tf

x = tf.constant([1, 2, 3, 4])
print(tf.cumsum(x))
print(tf.cumsum(x, exclusive=True))
print(tf.cumsum(x, reverse=True))
print(tf.math.cumprod(x))
print(tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0])))
