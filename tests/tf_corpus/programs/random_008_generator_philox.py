import tensorflow as tf

g = tf.random.Generator.from_seed(1, alg="philox")
print(g.normal([2, 2]))
g2 = tf.random.Generator.from_seed(1)
print(g2.normal([2, 2]))
