import tensorflow as tf

x = tf.constant([10, 20, 30, 40])
print(tf.gather(x, [3, 0, 0]))
m = tf.reshape(tf.range(6), [2, 3])
print(tf.gather(m, [2, 0], axis=1))
print(tf.gather(m, [[0, 1], [1, 0]]))
