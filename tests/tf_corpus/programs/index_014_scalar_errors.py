import tensorflow as tf

s = tf.constant(5)
try:
    len(s)
except TypeError as e:
    print(type(e).__name__)
try:
    iter(s)
except TypeError as e:
    print(type(e).__name__)
