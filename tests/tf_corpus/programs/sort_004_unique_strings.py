import tensorflow as tf

y, i = tf.unique(tf.constant(["b", "a", "b"]))
print(y)
print(i)
