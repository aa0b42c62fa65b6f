import tensorflow as tf

x = tf.constant([0.0, 0.5, 1.0])
print(tf.exp(x))
print(tf.math.log1p(x))
print(tf.sqrt(x))
print(tf.math.rsqrt(tf.constant([4.0])))
print(tf.square(x))
print(tf.math.sin(x), tf.math.cos(x))
