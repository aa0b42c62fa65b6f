import tensorflow as tf

print(tf.eye(3))
print(tf.eye(2, 3, dtype=tf.int32))
