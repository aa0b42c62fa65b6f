import tensorflow as tf

print(tf.constant([], dtype=tf.bool))
print(tf.zeros([2, 0]))
print(repr(tf.constant(False)))
