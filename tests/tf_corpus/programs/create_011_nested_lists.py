import tensorflow as tf

print(tf.constant([[[1], [2]], [[3], [4]]]).shape)
print(tf.constant([[1.0, 2], [3, 4]]))
