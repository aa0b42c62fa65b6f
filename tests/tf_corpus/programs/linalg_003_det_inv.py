import tensorflow as tf

m = tf.constant([[4.0, 7.0], [2.0, 6.0]])
print(tf.linalg.det(m))
print(tf.linalg.inv(m))
print(tf.linalg.trace(m))
