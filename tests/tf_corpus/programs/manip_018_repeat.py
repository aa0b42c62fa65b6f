import tensorflow as tf

print(tf.repeat([1, 2, 3], 2))
print(tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0))
