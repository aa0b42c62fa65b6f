import tensorflow as tf

print(tf.abs(tf.constant([-3, 2])))
print(tf.abs(tf.constant(3 + 4j)))
print(tf.negative(tf.constant([1.0, -2.0])))
print(tf.math.conj(tf.constant([1 + 1j])))
print(tf.math.angle(tf.constant([1j])))
