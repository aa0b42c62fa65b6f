import tensorflow as tf

x = tf.reshape(tf.range(6, dtype=tf.float32), [1, 6, 1])
k = tf.constant([[[1.0]], [[-1.0]]])
print(tf.nn.conv1d(x, k, stride=1, padding="VALID"))
