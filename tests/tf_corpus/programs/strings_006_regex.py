import tensorflow as tf

s = tf.constant(["cat hat", "dog"])
print(tf.strings.regex_replace(s, "[ch]at", "X"))
print(tf.strings.regex_full_match(s, "d.g"))
print(tf.strings.regex_replace(s, "a", "o", replace_global=False))
