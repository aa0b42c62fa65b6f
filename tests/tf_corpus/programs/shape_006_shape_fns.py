import tensorflow as tf

x = tf.zeros([2, 5])
print(tf.shape(x))
print(tf.size(x))
print(tf.rank(x))
print(tf.shape(x, out_type=tf.int64))
print(x.ndim, x.get_shape())
