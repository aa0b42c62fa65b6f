import tensorflow as tf

print(tf.constant([1 + 2j, -0.5j]))
print(repr(tf.constant(3j, dtype=tf.complex128)))
