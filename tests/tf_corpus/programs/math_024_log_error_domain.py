import tensorflow as tf

print(tf.math.log(tf.constant([0.0, -1.0, 1.0])))
print(tf.sqrt(tf.constant([-1.0])))
print(tf.constant([1.0]) / 0.0)
