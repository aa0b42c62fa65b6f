import tensorflow as tf

tf.random.set_seed(3)
print(tf.random.truncated_normal([4]))
