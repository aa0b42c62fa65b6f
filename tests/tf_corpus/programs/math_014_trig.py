import tensorflow as tf

x = tf.constant([0.0, 1.0])
print(tf.math.tan(x))
print(tf.math.atan2(tf.constant([1.0, -1.0]), tf.constant([1.0, 1.0])))
print(tf.math.asin(tf.constant([0.5])))
print(tf.math.tanh(x), tf.math.sinh(x))
