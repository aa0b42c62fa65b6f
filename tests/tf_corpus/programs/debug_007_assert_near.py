import tensorflow as tf

tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0 + 1e-7]))
try:
    tf.debugging.assert_near(tf.constant([1.0]), tf.constant([2.0]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
