import tensorflow as tf

v, i = tf.math.top_k(tf.constant([1, 9, 3, 9, 5]), k=3)
print(v)
print(i)
r = tf.math.top_k(tf.constant([[0.1, 0.5], [0.7, 0.2]]))
print(r.values, r.indices)
