import tensorflow as tf

x = tf.range(5)
print(x[3:1])
print(x[10:])
print(x[:0].shape)
