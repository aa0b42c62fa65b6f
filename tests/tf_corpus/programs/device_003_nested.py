import tensorflow as tf

with tf.device("/cpu:0"):
    with tf.device(None):
        y = tf.ones([2])
    z = y + 1
print(z)
print("CPU" in z.device)
