import tensorflow as tf

e, v = tf.linalg.eigh(tf.constant([[2.0, 0.0], [0.0, 1.0]]))
print(e)
print(tf.abs(v))
print(tf.linalg.eigvalsh(tf.constant([[2.0, 1.0], [1.0, 2.0]])))
