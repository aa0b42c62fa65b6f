import tensorflow as tf

x = tf.zeros([2, 3, 4])
s = x.shape
print(s)
print(s.as_list())
print(s.rank, s.ndims, len(s))
print(s.num_elements())
print(s.is_fully_defined())
