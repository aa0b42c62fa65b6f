import tensorflow as tf

a = tf.constant([1, 5, 3])
b = tf.constant([4, 2, 3])
print(tf.maximum(a, b))
print(tf.minimum(a, b))
print(tf.math.squared_difference(a, b))
print(tf.math.add_n([a, b, a]))
