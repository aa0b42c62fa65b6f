import tensorflow as tf

idx = tf.constant([[1], [3]])
upd = tf.constant([5, 7])
print(tf.scatter_nd(idx, upd, [5]))
print(tf.scatter_nd([[0, 0], [1, 1]], [1.0, 2.0], [2, 2]))
print(tf.tensor_scatter_nd_update(tf.zeros([3], tf.int32), [[2]], [4]))
print(tf.tensor_scatter_nd_add(tf.ones([3], tf.int32), [[0], [0]], [4, 5]))
