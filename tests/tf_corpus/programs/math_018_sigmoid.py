import tensorflow as tf

x = tf.constant([-2.0, 0.0, 2.0])
print(tf.sigmoid(x))
print(tf.math.log_sigmoid(x))
print(tf.math.softplus(x))
