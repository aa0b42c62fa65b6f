import tensorflow as tf

x = tf.reshape(tf.range(8), [2, 2, 2])
print(tf.gather_nd(x, [[0, 1], [1, 0]]))
print(tf.gather_nd(x, [[1, 1, 1]]))
