import tensorflow as tf

print(tf.random.stateless_categorical(tf.math.log([[0.1, 0.9]]), 6, seed=[4, 2]))
print(tf.random.stateless_binomial([3], seed=[1, 1], counts=10.0, probs=0.5))
