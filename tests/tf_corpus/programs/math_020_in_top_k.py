import tensorflow as tf

print(tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9], [0.8, 0.2]]), 1))
print(tf.math.bincount(tf.constant([1, 1, 3])))
print(tf.math.confusion_matrix([0, 1, 1], [0, 0, 1]))
