import tensorflow as tf

x = tf.constant([[0.0, 1.0], [2.0, 3.0]])
print(tf.reduce_logsumexp(x))
print(tf.math.reduce_logsumexp(x, axis=1))
print(tf.math.reduce_euclidean_norm(tf.constant([3.0, 4.0])))
