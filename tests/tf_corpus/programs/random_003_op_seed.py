import tensorflow as tf

tf.random.set_seed(7)
a = tf.random.uniform([2], seed=3)
b = tf.random.uniform([2], seed=3)
print(a)
print(b)
