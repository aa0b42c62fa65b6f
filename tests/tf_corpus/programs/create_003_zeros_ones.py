import tensorflow as tf

print(tf.zeros([2, 3]))
print(tf.ones((2,), dtype=tf.int32))
print(tf.zeros([0, 4]).shape)
print(tf.ones([2, 2], tf.bool))
