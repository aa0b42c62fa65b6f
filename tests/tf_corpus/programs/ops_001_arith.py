import tensorflow as tf

a = tf.constant([1, 2, 3])
b = tf.constant([4, 5, 6])
print(a + b)
print(a - b)
print(a * b)
print(b / a)
print(b // a)
print(b % a)
print(a ** 2)
