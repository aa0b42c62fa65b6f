import tensorflow as tf

print(tf.linalg.diag([1, 2, 3]))
print(tf.linalg.diag_part(tf.reshape(tf.range(9), [3, 3])))
print(tf.linalg.band_part(tf.ones([3, 3]), 0, 1))
