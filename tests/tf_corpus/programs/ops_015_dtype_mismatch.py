import tensorflow as tf

try:
    tf.constant([1, 2]) + tf.constant([1.0, 2.0])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
