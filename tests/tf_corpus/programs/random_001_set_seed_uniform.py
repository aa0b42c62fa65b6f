import tensorflow as tf

tf.random.set_seed(42)
print(tf.random.uniform([3]))
print(tf.random.uniform([2, 2], minval=0, maxval=10, dtype=tf.int32))
