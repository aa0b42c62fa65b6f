import tensorflow as tf

x = tf.constant([-2.0, 0.5, 3.0])
print(tf.clip_by_value(x, -1.0, 1.0))
print(tf.clip_by_value(tf.constant([1, 5, 9]), 2, 6))
