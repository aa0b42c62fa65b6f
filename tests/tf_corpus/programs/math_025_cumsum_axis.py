import tensorflow as tf

x = tf.reshape(tf.range(6), [2, 3])
print(tf.cumsum(x, axis=1))
print(tf.cumsum(x, axis=0, exclusive=True, reverse=True))
