import tensorflow as tf

s = {"b": [1, 2], "a": (3, {"c": 4})}
print(tf.nest.flatten(s))
print(tf.nest.flatten(5))
print(tf.nest.flatten([[], [None]]))
