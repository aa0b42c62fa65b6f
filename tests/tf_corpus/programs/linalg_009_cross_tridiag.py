import tensorflow as tf

print(tf.linalg.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0])))
print(tf.linalg.matvec(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 1.0])))
print(tf.linalg.logdet(tf.constant([[2.0, 0.0], [0.0, 3.0]])))
