import tensorflow as tf

try:
    tf.constant([[1, 2], [3]])
except ValueError as e:
    print(type(e).__name__)
