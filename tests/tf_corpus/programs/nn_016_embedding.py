import tensorflow as tf

params = tf.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
print(tf.nn.embedding_lookup(params, [2, 0]))
print(tf.nn.embedding_lookup(params, [[1], [1]]).shape)
