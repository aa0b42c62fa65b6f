import tensorflow as tf

a = tf.constant(["x", "y"])
print(a == "x")
print(tf.equal(a, tf.constant(["x", "z"])))
