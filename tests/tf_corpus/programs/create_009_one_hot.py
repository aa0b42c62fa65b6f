import tensorflow as tf

print(tf.one_hot([0, 2, 1], 3))
print(tf.one_hot([1, -1], 3, on_value=5, off_value=0))
print(tf.one_hot([[0], [1]], 2, axis=0))
