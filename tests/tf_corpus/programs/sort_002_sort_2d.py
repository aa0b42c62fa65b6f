import tensorflow as tf

x = tf.constant([[3.0, 1.0], [0.5, 2.0]])
print(tf.sort(x, axis=0))
print(tf.sort(x, axis=-1))
print(tf.argsort(x, axis=0, stable=True))
