import tensorflow as tf

x = tf.constant([[3.0, 4.0], [6.0, 8.0]])
print(tf.norm(x))
print(tf.norm(x, axis=1))
print(tf.norm(x, ord=1, axis=1))
print(tf.linalg.norm(tf.constant([1.0, -2.0]), ord=float("inf")))
