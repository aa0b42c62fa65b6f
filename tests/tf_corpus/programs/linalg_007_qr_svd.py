import tensorflow as tf

m = tf.constant([[2.0, 0.0], [0.0, 3.0]])
s = tf.linalg.svd(m, compute_uv=False)
print(s)
q, r = tf.linalg.qr(tf.constant([[1.0, 0.0], [0.0, 1.0]]))
print(tf.abs(q), tf.abs(r))
