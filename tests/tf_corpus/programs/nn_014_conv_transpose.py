import tensorflow as tf

x = tf.ones([1, 2, 2, 1])
k = tf.ones([2, 2, 1, 1])
y = tf.nn.conv2d_transpose(x, k, output_shape=[1, 3, 3, 1], strides=1, padding="VALID")
print(y[0, :, :, 0])
