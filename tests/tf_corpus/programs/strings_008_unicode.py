import tensorflow as tf

s = tf.constant("añb")
print(tf.strings.unicode_decode(s, "UTF-8"))
print(tf.strings.unicode_encode([97, 241, 98], "UTF-8"))
print(tf.strings.unicode_split(s, "UTF-8"))
