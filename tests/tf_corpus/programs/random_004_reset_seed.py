import tensorflow as tf

tf.random.set_seed(5)
a = tf.random.uniform([3])
tf.random.set_seed(5)
b = tf.random.uniform([3])
print(a)
print(bool(tf.reduce_all(a == b)))
