import tensorflow as tf

a = tf.constant([True, False, True])
b = tf.constant([True, True, False])
print(a & b)
print(a | b)
print(a ^ b)
print(~a)
