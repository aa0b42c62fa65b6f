import tensorflow as tf

tf.random.set_seed(11)
print(tf.random.shuffle(tf.range(6), seed=2))
