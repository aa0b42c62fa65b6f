import tensorflow as tf

a = tf.constant([1, 2])
b = tf.constant([3, 4])
print(tf.stack([a, b]))
print(tf.stack([a, b], axis=1))
print(tf.unstack(tf.constant([[1, 2], [3, 4]])))
print(tf.unstack(tf.constant([[1, 2], [3, 4]]), axis=1))
