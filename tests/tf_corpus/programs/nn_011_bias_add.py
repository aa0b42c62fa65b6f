import tensorflow as tf

print(tf.nn.bias_add(tf.zeros([2, 3]), [1.0, 2.0, 3.0]))
print(tf.nn.bias_add(tf.zeros([1, 2, 1, 1]), [5.0]))
