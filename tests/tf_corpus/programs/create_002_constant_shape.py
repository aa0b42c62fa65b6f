import tensorflow as tf

print(tf.constant(7, shape=[2, 3]))
print(tf.constant([1, 2, 3, 4, 5, 6], shape=(3, 2)))
print(tf.constant(0.5, dtype=tf.float16, shape=[2]))
