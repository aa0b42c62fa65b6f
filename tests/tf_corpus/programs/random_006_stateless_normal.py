import tensorflow as tf

print(tf.random.stateless_normal([4], seed=[0, 0]))
print(tf.random.stateless_truncated_normal([3], seed=[9, 9]))
