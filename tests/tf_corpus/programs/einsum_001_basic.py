import tensorflow as tf

a = tf.reshape(tf.range(6.0), [2, 3])
b = tf.reshape(tf.range(6.0), [3, 2])
print(tf.einsum("ij,jk->ik", a, b))
print(tf.einsum("ij->ji", a))
print(tf.einsum("ij->", a))
print(tf.einsum("ii->i", tf.eye(2)))
