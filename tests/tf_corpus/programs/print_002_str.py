import tensorflow as tf

print(str(tf.constant([1, 2, 3])))
print(tf.constant([[1.5, 2.25], [3.0, 4.125]]))
print(tf.constant([], dtype=tf.float32))
