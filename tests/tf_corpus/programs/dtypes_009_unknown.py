import tensorflow as tf

try:
    tf.as_dtype("notatype")
except TypeError as e:
    print(type(e).__name__)
