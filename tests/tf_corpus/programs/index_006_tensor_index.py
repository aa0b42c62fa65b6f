import tensorflow as tf

x = tf.constant([10, 20, 30, 40])
i = tf.constant(2)
print(x[i])
print(x[i:])
print(x[: tf.constant(1)])
