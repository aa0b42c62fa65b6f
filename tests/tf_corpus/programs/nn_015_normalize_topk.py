import tensorflow as tf

print(tf.nn.top_k(tf.constant([3, 1, 2]), 2).values)
print(tf.nn.local_response_normalization(tf.ones([1, 1, 1, 3]), depth_radius=1).shape)
print(tf.nn.zero_fraction(tf.constant([0, 1, 0, 2])))
