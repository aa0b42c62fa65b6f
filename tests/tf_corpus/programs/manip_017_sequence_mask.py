import tensorflow as tf

print(tf.sequence_mask([1, 3, 2], 4))
print(tf.sequence_mask([2, 0], dtype=tf.int32))
