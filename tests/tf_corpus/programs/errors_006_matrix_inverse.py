import tensorflow as tf

try:
    tf.linalg.inv(tf.zeros([2, 2]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
