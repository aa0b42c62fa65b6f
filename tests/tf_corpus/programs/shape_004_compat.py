import tensorflow as tf

a = tf.TensorShape([2, None])
print(a.is_compatible_with([2, 7]))
print(a.is_compatible_with([3, 7]))
print(tf.TensorShape([]).rank)
print(tf.TensorShape([1, 2]).as_list())
