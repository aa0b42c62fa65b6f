import tensorflow as tf

a = tf.constant([1.0, 2.0])
print(1 + a)
print(10 - a)
print(3 * a)
print(1 / a)
print(2 ** a)
print(7 // tf.constant([2, 3]))
print(7 % tf.constant([2, 3]))
