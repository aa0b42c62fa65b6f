import tensorflow as tf

s = tf.constant(1.0)
print(s.shape, s.shape.rank, s.shape.as_list())
print(tf.shape(s))
print(s.ndim)
