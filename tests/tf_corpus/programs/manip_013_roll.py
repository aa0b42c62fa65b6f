import tensorflow as tf

x = tf.range(5)
print(tf.roll(x, 2, 0))
print(tf.roll(x, -1, axis=0))
m = tf.reshape(tf.range(6), [2, 3])
print(tf.roll(m, shift=[1, 1], axis=[0, 1]))
