import tensorflow as tf

x = tf.constant([[1, 2]])
print(tf.tile(x, [2, 3]))
print(tf.tile(tf.constant([7]), [4]))
