import tensorflow as tf

parts = tf.dynamic_partition(tf.constant([10, 20, 30, 40]), [0, 1, 0, 1], 2)
for p in parts:
    print(p)
print(tf.dynamic_stitch([[0, 2], [1, 3]], [[1, 2], [3, 4]]))
