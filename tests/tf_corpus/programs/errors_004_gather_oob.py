import tensorflow as tf

try:
    tf.gather(tf.constant([1, 2, 3]), [5])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
    print("not in [0, 3)" in e.message)
