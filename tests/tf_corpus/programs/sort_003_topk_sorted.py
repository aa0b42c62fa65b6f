import tensorflow as tf

r = tf.math.top_k(tf.constant([[5, 1, 4], [2, 8, 3]]), k=2)
print(r.values)
print(r.indices)
