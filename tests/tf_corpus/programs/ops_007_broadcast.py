import tensorflow as tf

a = tf.ones([2, 3])
b = tf.constant([1.0, 2.0, 3.0])
print(a * b)
c = tf.constant([[10.0], [20.0]])
print(a + c)
print(tf.broadcast_to([1, 2], [3, 2]))
