import tensorflow as tf

try:
    tf.reshape(tf.range(3), [2])
except tf.errors.OpError as e:
    print(type(e).__name__, e.error_code)
    print(e.error_code == tf.errors.INVALID_ARGUMENT)
