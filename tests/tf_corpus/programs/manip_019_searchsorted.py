import tensorflow as tf

print(tf.searchsorted([[1, 3, 5, 7]], [[0, 3, 8]]))
print(tf.searchsorted([[1, 3, 5, 7]], [[3, 6]], side="right"))
