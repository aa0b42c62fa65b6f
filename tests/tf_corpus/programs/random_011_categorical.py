import tensorflow as tf

tf.random.set_seed(8)
print(tf.random.categorical(tf.math.log([[0.5, 0.5]]), 5, seed=1))
