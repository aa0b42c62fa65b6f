import tensorflow as tf

x, y = tf.meshgrid([1, 2, 3], [4, 5])
print(x)
print(y)
