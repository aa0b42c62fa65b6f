import tensorflow as tf

try:
    tf.concat([tf.zeros([2, 2]), tf.zeros([3, 3])], 0)
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
