import tensorflow as tf

try:
    tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
