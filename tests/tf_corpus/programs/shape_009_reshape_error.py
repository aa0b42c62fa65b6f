import tensorflow as tf

try:
    tf.reshape(tf.range(6), [4, 2])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
