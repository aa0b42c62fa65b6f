import tensorflow as tf

g = tf.random.Generator.from_seed(5)
a, b = g.split(2)
print(a.uniform([2]))
print(b.uniform([2]))
