import tensorflow as tf

s = tf.constant(["hello", "World"])
print(tf.strings.upper(s))
print(tf.strings.lower(s))
print(tf.strings.length(s))
print(tf.strings.length(tf.constant("héllo"), unit="UTF8_CHAR"))
