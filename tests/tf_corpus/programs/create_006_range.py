import tensorflow as tf

print(tf.range(5))
print(tf.range(1, 10, 3))
print(tf.range(5, 0, -2))
print(tf.range(0.0, 1.0, 0.25))
print(tf.range(3, dtype=tf.float32))
