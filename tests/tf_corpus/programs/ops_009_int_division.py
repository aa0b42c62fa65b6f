import tensorflow as tf

a = tf.constant([7, -7, 7, -7])
b = tf.constant([2, 2, -2, -2])
print(a // b)
print(a % b)
print(tf.truncatediv(a, b))
print(tf.truncatemod(a, b))
