import tensorflow as tf

a = tf.constant([1, 2, 3])
print(a > 2)
print(a <= 2)
print(a == 2)
print(tf.equal(a, 2))
print(tf.not_equal(a, 2))
