import tensorflow as tf

x = tf.constant([1, 2, 3, 4])
print(tf.boolean_mask(x, [True, False, True, False]))
m = tf.constant([[1, 2], [3, 4]])
print(tf.boolean_mask(m, [False, True]))
print(tf.boolean_mask(m, m > 1))
