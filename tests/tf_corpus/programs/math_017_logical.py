import tensorflow as tf

a = tf.constant([True, False])
b = tf.constant([True, True])
print(tf.logical_and(a, b))
print(tf.logical_or(a, b))
print(tf.logical_not(a))
print(tf.math.logical_xor(a, b))
