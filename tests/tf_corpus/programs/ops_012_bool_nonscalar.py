import tensorflow as tf

try:
    bool(tf.constant([1, 2]))
except ValueError as e:
    print(type(e).__name__)
