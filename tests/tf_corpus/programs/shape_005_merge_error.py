import tensorflow as tf

try:
    tf.TensorShape([2]).merge_with(tf.TensorShape([3]))
except ValueError as e:
    print(type(e).__name__)
