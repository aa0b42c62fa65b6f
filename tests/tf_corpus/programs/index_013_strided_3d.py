import tensorflow as tf

x = tf.reshape(tf.range(27), [3, 3, 3])
print(x[::2, 1, ::-1])
print(x[-1:, :1])
