import tensorflow as tf

x = tf.constant([3, 1, 2, 5, 4])
print(tf.sort(x))
print(tf.sort(x, direction="DESCENDING"))
print(tf.argsort(x))
print(tf.argsort(x, direction="DESCENDING"))
