import tensorflow as tf

x = tf.constant([1.0, float("nan"), float("inf"), -float("inf")])
print(tf.math.is_nan(x))
print(tf.math.is_inf(x))
print(tf.math.is_finite(x))
print(x)
