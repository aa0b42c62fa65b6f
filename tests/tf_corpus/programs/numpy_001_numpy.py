import tensorflow as tf

t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
a = t.numpy()
print(type(a).__name__, a.dtype, a.shape)
print(a)
s = tf.constant(2.5).numpy()
print(type(s).__name__, s)
