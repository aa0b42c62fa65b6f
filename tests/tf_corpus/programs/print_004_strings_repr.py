import tensorflow as tf

print(repr(tf.constant("a'b")))
print(tf.constant(["x", "y\n"]))
print(repr(tf.constant(b"\xff")))
