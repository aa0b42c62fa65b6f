import tensorflow as tf

with tf.device("/CPU:0"):
    x = tf.constant([1.0, 2.0]) * 2
print(x)
print(x.device.endswith("CPU:0"))
