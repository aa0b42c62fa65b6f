import tensorflow as tf

s = {"w": tf.constant([1, 2]), "b": tf.constant(3)}
flat = tf.nest.flatten(s)
print(flat)
print(tf.nest.map_structure(lambda t: t.shape.as_list(), s))
