import tensorflow as tf

x = tf.constant([1, 2, 3])
try:
    x[5]
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
