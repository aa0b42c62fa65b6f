import tensorflow as tf

print(tf.debugging.check_numerics(tf.constant([1.0]), "fine"))
try:
    tf.debugging.check_numerics(tf.constant([float("nan")]), "bad value")
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
    print("bad value" in e.message)
