import tensorflow as tf

x = tf.reshape(tf.range(12), [3, 4])
print(tf.slice(x, [1, 1], [2, 2]))
print(tf.slice(x, [0, 2], [-1, 1]))
print(tf.strided_slice(x, [0, 0], [3, 4], [2, 3]))
