import tensorflow as tf

print(repr(tf.constant([1, 2, 3])))
print(repr(tf.constant(1.5)))
print(repr(tf.constant([[True, False]])))
