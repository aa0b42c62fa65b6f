import tensorflow as tf

a = tf.constant([3.0, 0.0])
b = tf.constant([0.0, 4.0])
clipped, norm = tf.clip_by_global_norm([a, b], 2.5)
print(norm)
print(clipped)
print(tf.linalg.global_norm([a, b]))
