import tensorflow as tf

print(tf.fill([2, 2], 9))
print(tf.fill([3], 1.5))
print(tf.fill([1, 2], "s"))
