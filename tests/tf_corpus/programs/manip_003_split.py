import tensorflow as tf

x = tf.reshape(tf.range(12), [2, 6])
for p in tf.split(x, 3, axis=1):
    print(p)
a, b = tf.split(x, [2, 4], 1)
print(a.shape, b.shape)
