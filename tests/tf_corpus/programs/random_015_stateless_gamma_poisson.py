import tensorflow as tf

print(tf.random.stateless_poisson([3], seed=[1, 2], lam=4.0))
print(tf.random.stateless_gamma([2], seed=[1, 2], alpha=2.0))
