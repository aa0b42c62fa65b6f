import tensorflow as tf

x = tf.constant([1.0, -2.0], dtype=tf.float32)
print(tf.bitcast(x, tf.int32))
print(tf.bitcast(tf.constant([1], tf.int32), tf.uint8))
