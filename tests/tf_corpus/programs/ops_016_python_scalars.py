import tensorflow as tf

x = tf.constant([1.0, 2.0])
print(x + 1)
print(x * 0.5)
y = tf.constant([1, 2])
print(y + 1)
print(y * 2)
