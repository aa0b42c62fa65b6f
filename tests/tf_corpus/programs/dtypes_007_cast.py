import tensorflow as tf

x = tf.constant([1.7, -1.7, 2.5, -0.2])
print(tf.cast(x, tf.int32))
print(tf.cast(x, tf.bool))
print(tf.cast(tf.constant([0, 1, 2]), tf.float16))
print(tf.cast(tf.constant([300, -1]), tf.uint8))
