import tensorflow as tf

tf.debugging.assert_less(tf.constant(1), tf.constant(2))
try:
    tf.debugging.assert_less(tf.constant([3]), tf.constant([2]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
try:
    tf.debugging.assert_greater_equal(tf.constant([1]), tf.constant([2]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
