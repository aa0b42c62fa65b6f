import tensorflow as tf

a = tf.constant(2**40)
print(a.dtype, a.numpy())
b = tf.constant([1, 2], dtype=tf.int64)
print(b * 3)
