import tensorflow as tf

tf.random.set_seed(4)
print(tf.random.gamma([3], alpha=1.5, seed=1))
print(tf.random.poisson([3], lam=2.0, seed=1))
