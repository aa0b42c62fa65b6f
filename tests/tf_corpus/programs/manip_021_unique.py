import tensorflow as tf

y, idx = tf.unique(tf.constant([4, 1, 4, 2, 1]))
print(y)
print(idx)
y, idx, count = tf.unique_with_counts(tf.constant([3, 3, 5]))
print(y, idx, count)
