import tensorflow as tf

x = tf.constant([[1, 2], [3, 4]])
print(tf.math.accumulate_n([x, x]))
print(tf.math.scalar_mul(3, x))
print(tf.math.multiply_no_nan(tf.constant([float("inf")]), tf.constant([0.0])))
