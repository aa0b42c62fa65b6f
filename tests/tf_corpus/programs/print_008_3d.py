import tensorflow as tf

print(tf.reshape(tf.range(12), [2, 3, 2]))
print(tf.ones([1, 1, 1, 1]))
