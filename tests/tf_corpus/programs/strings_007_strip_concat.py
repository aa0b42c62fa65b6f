import tensorflow as tf

print(tf.strings.strip(tf.constant(["  pad  ", "x "])))
a = tf.constant(["a", "b"])
print(a + tf.constant(["1", "2"]))
print(tf.strings.join([a, "!"]))
