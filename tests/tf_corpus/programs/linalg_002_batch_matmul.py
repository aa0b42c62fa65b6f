import tensorflow as tf

a = tf.ones([2, 2, 3])
b = tf.ones([3, 4])
print(tf.matmul(a, b).shape)
print(tf.matmul(tf.ones([2, 1, 2, 3]), tf.ones([3, 3, 2])).shape)
