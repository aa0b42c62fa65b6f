import tensorflow as tf

x = tf.range(8)
print(x[::-1])
print(x[6:1:-2])
print(x[-2::-3])
m = tf.reshape(tf.range(6), [2, 3])
print(m[::-1, ::-1])
