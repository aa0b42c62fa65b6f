import tensorflow as tf

print(tf.constant([1, 2, 3]) / tf.constant([2, 2, 2]))
print(tf.constant(5) / 2)
print(tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])))
