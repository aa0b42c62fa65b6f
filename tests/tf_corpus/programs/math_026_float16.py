import tensorflow as tf

x = tf.constant([1.0, 2.5, 1000.0], tf.float16)
print(x * 2)
print(tf.reduce_sum(x))
print(x.numpy().dtype)
