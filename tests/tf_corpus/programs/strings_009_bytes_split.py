import tensorflow as tf

print(tf.strings.bytes_split(tf.constant("abc")))
print(tf.strings.unicode_script(tf.constant([0x41, 0x3b1])))
