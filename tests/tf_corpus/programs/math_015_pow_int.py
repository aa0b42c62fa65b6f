import tensorflow as tf

print(tf.pow(tf.constant([2, 3]), 3))
print(tf.pow(tf.constant(2.0), tf.constant([0.5, -1.0])))
print(tf.math.reciprocal(tf.constant([4.0, 0.5])))
