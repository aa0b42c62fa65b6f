import tensorflow as tf

try:
    tf.constant("a") + 1
except (TypeError, ValueError, tf.errors.InvalidArgumentError) as e:
    print(type(e).__name__)
