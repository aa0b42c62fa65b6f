import tensorflow as tf

ts = [tf.constant(1), tf.constant([2.0])]
print(ts)
print((tf.constant("a"),))
