import tensorflow as tf

x = tf.reshape(tf.range(6, dtype=tf.float32), [1, 6, 1])
print(tf.nn.avg_pool1d(x, 2, 2, "VALID"))
print(tf.nn.max_pool1d(x, 3, 1, "SAME")[0, :, 0])
