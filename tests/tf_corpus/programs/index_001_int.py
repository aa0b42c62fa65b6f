import tensorflow as tf

x = tf.constant([[1, 2, 3], [4, 5, 6]])
print(x[0])
print(x[1, 2])
print(x[-1])
print(x[0][1])
