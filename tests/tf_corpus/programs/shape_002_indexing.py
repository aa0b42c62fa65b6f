import tensorflow as tf

s = tf.zeros([2, 3, 4]).shape
print(s[0], s[-1])
print(s[1:])
print(s == [2, 3, 4])
print(s == (2, 3, 4))
print(list(s))
