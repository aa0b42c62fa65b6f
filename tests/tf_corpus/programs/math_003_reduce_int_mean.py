import tensorflow as tf

print(tf.reduce_mean(tf.constant([1, 2])))
print(tf.reduce_mean(tf.constant([1.0, 2.0])))
print(tf.math.reduce_std(tf.constant([1.0, 2.0, 3.0, 4.0])))
print(tf.math.reduce_variance(tf.constant([1.0, 2.0, 3.0, 4.0])))
