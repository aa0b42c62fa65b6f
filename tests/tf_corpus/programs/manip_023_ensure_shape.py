import tensorflow as tf

x = tf.constant([1, 2])
print(tf.ensure_shape(x, [2]))
try:
    tf.ensure_shape(x, [3])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
