import tensorflow as tf

print(tf.random.stateless_uniform([3], seed=[1, 2]))
print(tf.random.stateless_uniform([2], seed=(1, 2), minval=5, maxval=9, dtype=tf.int32))
print(tf.random.stateless_uniform([2], seed=[3, 4], dtype=tf.float64))
