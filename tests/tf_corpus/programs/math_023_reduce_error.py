import tensorflow as tf

try:
    tf.reduce_sum(tf.ones([2, 2]), axis=3)
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
