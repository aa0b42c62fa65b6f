import tensorflow as tf

print(tf.constant([1, 2], dtype=tf.uint8))
print(tf.constant([-1], dtype=tf.int64))
print(repr(tf.constant(7, dtype=tf.int16)))
