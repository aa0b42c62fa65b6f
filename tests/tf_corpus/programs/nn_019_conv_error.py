import tensorflow as tf

try:
    tf.nn.conv2d(tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 3, 1]), 1, "VALID")
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
