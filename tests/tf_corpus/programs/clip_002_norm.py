import tensorflow as tf

x = tf.constant([3.0, 4.0])
print(tf.clip_by_norm(x, 1.0))
print(tf.clip_by_norm(x, 10.0))
print(tf.clip_by_norm(tf.constant([[3.0, 4.0], [1.0, 0.0]]), 2.0, axes=[1]))
