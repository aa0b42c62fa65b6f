import tensorflow as tf

tf.debugging.assert_all_finite(tf.constant([1.0, 2.0]), "finite")
try:
    tf.debugging.assert_all_finite(tf.constant([float("inf")]), "inf here")
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
