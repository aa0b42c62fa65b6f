import tensorflow as tf

print(tf.nest.pack_sequence_as({"a": 0, "b": [0, 0]}, [7, 8, 9]))
print(tf.nest.pack_sequence_as((0, (0,)), ["p", "q"]))
