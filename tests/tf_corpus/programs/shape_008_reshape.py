import tensorflow as tf

x = tf.range(12)
print(tf.reshape(x, [3, 4]))
print(tf.reshape(x, [2, -1]).shape)
print(tf.reshape(x, [-1]).shape)
print(tf.reshape(tf.constant(5), [1, 1]))
