import tensorflow as tf

print(tf.strings.join(["a", "b", "c"], separator="-"))
print(tf.strings.reduce_join(tf.constant(["x", "y", "z"]), separator=","))
print(tf.strings.split(tf.constant("a b  c")))
print(tf.strings.split(tf.constant(["a,b", "c"]), sep=","))
