import tensorflow as tf

data = tf.constant([1, 2, 3, 4, 5])
seg = tf.constant([0, 0, 1, 1, 1])
print(tf.math.segment_sum(data, seg))
print(tf.math.segment_max(data, seg))
print(tf.math.segment_mean(tf.cast(data, tf.float32), seg))
print(tf.math.unsorted_segment_sum(data, [2, 0, 2, 1, 0], 3))
print(tf.math.unsorted_segment_min(data, [1, 1, 0, 0, 1], 2))
