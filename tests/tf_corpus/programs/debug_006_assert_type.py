import tensorflow as tf

tf.debugging.assert_type(tf.constant(1.0), tf.float32)
try:
    tf.debugging.assert_type(tf.constant(1), tf.float32)
except TypeError as e:
    print(type(e).__name__)
print(tf.debugging.is_numeric_tensor(tf.constant("a")))
