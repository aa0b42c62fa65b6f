import tensorflow as tf

x = tf.reshape(tf.range(6), [2, 3])
print(tf.reverse(x, [0]))
print(tf.reverse(x, axis=[1]))
print(tf.reverse(x, [0, 1]))
