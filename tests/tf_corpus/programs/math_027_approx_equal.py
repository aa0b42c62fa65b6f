import tensorflow as tf

a = tf.constant([1.0, 2.0])
print(bool(tf.reduce_all(tf.abs(a - (a + 1e-9)) < 1e-6)))
print(tf.math.approx_max_k(tf.constant([1.0, 4.0, 2.0]), 1)[0])
