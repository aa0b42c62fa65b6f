import tensorflow as tf

print(tf.constant([1e-8, 1.0, 1e8]))
print(tf.constant([0.1, 0.2], dtype=tf.float64))
print(tf.constant([1.0, float("nan"), float("inf")]))
print(tf.constant([1.5], dtype=tf.float16))
