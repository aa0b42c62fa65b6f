import tensorflow as tf

tf.random.set_seed(1)
print(tf.random.normal([4]))
print(tf.random.normal([2], mean=5.0, stddev=0.1))
