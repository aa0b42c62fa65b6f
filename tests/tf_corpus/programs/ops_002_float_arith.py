import tensorflow as tf

a = tf.constant([1.5, -2.0, 3.0])
print(a / 2)
print(-a)
print(abs(a))
print(a // 2)
print(a % 2)
