import tensorflow as tf

x = tf.constant([1, 2, 3])
try:
    x["a"]
except TypeError as e:
    print(type(e).__name__)
