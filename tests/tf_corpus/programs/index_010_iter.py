import tensorflow as tf

x = tf.constant([[1, 2], [3, 4], [5, 6]])
for row in x:
    print(row)
print(len(x))
print([int(v) for v in tf.constant([7, 8])])
