import tensorflow as tf

s = tf.constant("TensorFlow")
print(tf.strings.substr(s, 0, 6))
print(tf.strings.substr(s, -4, 4))
print(tf.strings.substr(tf.constant(["abc", "defg"]), 1, 2))
