import tensorflow as tf

e = tf.errors.InvalidArgumentError(None, None, "custom message")
print(e.message)
print(str(e))
print(tf.errors.UnknownError(None, None, "u").error_code)
