import tensorflow as tf

try:
    tf.ones([2, 3]) + tf.ones([4])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
    print("Incompatible shapes" in str(e))
