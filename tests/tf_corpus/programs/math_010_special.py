import tensorflow as tf

x = tf.constant([0.5, 1.0, 2.0])
print(tf.math.lgamma(x))
print(tf.math.digamma(x))
print(tf.math.erf(x))
print(tf.math.erfc(x))
print(tf.math.bessel_i0(x))
