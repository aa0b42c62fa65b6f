import tensorflow as tf

print(tf.math.polyval([1.0, 2.0, 3.0], tf.constant(2.0)))
print(tf.math.floormod(tf.constant([5.5, -5.5]), 2.0))
print(tf.math.nextafter(tf.constant(1.0), tf.constant(2.0)) > 1.0)
