import tensorflow as tf

x = tf.ones([1, 3, 3, 2])
k = tf.ones([2, 2, 2, 1])
print(tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "VALID")[0, :, :, 1])
