import tensorflow as tf

print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0])))
print(tf.nn.scale_regularization_loss(tf.constant(4.0)))
print(tf.nn.softmax(tf.constant([1000.0, 1000.0])))
