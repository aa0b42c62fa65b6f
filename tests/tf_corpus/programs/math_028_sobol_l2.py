import tensorflow as tf

print(tf.math.l2_normalize(tf.constant([3.0, 4.0])))
print(tf.nn.l2_normalize(tf.constant([[1.0, 0.0], [1.0, 1.0]]), axis=1))
