import tensorflow as tf

a = tf.ones([2, 3, 4])
b = tf.ones([2, 4, 5])
print(tf.einsum("bij,bjk->bik", a, b).shape)
print(tf.einsum("i,i->", tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))
print(tf.einsum("i,j->ij", tf.constant([1, 2]), tf.constant([3, 4])))
