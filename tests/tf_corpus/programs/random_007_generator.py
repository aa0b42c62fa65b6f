import tensorflow as tf

g = tf.random.Generator.from_seed(123)
print(g.uniform([3]))
print(g.normal([2]))
print(g.uniform([2], maxval=100, dtype=tf.int64))
