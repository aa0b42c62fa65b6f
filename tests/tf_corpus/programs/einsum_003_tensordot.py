import tensorflow as tf

a = tf.reshape(tf.range(6.0), [2, 3])
b = tf.reshape(tf.range(6.0), [3, 2])
print(tf.tensordot(a, b, axes=1))
print(tf.tensordot(a, a, axes=[[0, 1], [0, 1]]))
print(tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), axes=0))
