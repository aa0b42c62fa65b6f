import tensorflow as tf

a = tf.TensorShape([2, None])
b = tf.TensorShape([None, 3])
print(a)
print(a.merge_with(b))
print(a.concatenate([5]))
print(a.is_fully_defined(), a.rank)
print(tf.TensorShape(None))
print(tf.TensorShape(None).rank)
