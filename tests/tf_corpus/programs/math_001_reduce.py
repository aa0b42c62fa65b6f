import tensorflow as tf

x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(tf.reduce_sum(x))
print(tf.reduce_sum(x, axis=0))
print(tf.reduce_sum(x, axis=1, keepdims=True))
print(tf.reduce_mean(x))
print(tf.reduce_max(x, 1), tf.reduce_min(x, 0))
print(tf.reduce_prod(x, -1))
