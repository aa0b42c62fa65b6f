import tensorflow as tf

a = tf.constant([[2.0, 0.0], [1.0, 1.0]])
print(tf.linalg.triangular_solve(a, tf.constant([[2.0], [3.0]])))
print(tf.linalg.set_diag(tf.zeros([2, 2]), [5.0, 6.0]))
print(tf.linalg.tensor_diag_part(tf.eye(2)))
