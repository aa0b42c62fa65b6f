import tensorflow as tf

print(tf.constant(["a", "bc", ""]))
print(tf.constant(b"bytes"))
print(tf.constant("héllo"))
