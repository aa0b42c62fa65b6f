import tensorflow as tf

x = tf.constant([-1.5, -0.5, 0.5, 1.5, 2.5])
print(tf.round(x))
print(tf.math.floor(x))
print(tf.math.ceil(x))
print(tf.math.rint(x))
print(tf.sign(x))
