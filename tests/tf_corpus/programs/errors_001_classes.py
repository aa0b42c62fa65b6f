import tensorflow as tf

print(issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError))
print(issubclass(tf.errors.NotFoundError, tf.errors.OpError))
print(issubclass(tf.errors.OpError, Exception))
print(tf.errors.INVALID_ARGUMENT, tf.errors.NOT_FOUND, tf.errors.OUT_OF_RANGE)
