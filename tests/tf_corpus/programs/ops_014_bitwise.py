import tensorflow as tf

a = tf.constant([12, 10], tf.int32)
b = tf.constant([10, 6], tf.int32)
print(a & b)
print(a | b)
print(a ^ b)
print(~a)
print(tf.bitwise.left_shift(a, 1))
