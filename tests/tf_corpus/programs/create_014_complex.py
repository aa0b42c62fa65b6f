import tensorflow as tf

c = tf.constant([1 + 2j, 3 - 1j])
print(c)
print(tf.math.real(c), tf.math.imag(c))
print(tf.complex(tf.constant([1.0]), tf.constant([2.0])))
