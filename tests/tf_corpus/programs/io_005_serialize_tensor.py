import tensorflow as tf

s = tf.io.serialize_tensor(tf.constant([1, 2, 3]))
print(s.dtype)
print(tf.io.parse_tensor(s, tf.int32))
