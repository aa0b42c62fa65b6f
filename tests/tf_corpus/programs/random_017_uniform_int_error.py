import tensorflow as tf

try:
    tf.random.uniform([2], dtype=tf.int32)
except ValueError as e:
    print(type(e).__name__)
