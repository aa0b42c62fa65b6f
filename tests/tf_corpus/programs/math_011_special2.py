import tensorflow as tf

print(tf.math.igamma(tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0])))
print(tf.math.betainc(tf.constant(2.0), tf.constant(3.0), tf.constant(0.4)))
print(tf.math.zeta(tf.constant(2.0), tf.constant(1.0)))
print(tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 3.0])))
