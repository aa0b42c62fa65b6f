import tensorflow as tf

s = {"x": [1, 2], "y": (3,)}
print(tf.nest.map_structure(lambda v: v * 10, s))
print(tf.nest.map_structure(lambda a, b: a + b, [1, 2], [10, 20]))
