import tensorflow as tf

tf.random.set_seed(9)
print(tf.random.normal([2], dtype=tf.float64))
print(tf.random.uniform([2], dtype=tf.float16))
