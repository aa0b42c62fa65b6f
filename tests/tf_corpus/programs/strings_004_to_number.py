import tensorflow as tf

print(tf.strings.to_number(tf.constant(["1.5", "-2"])))
print(tf.strings.to_number(tf.constant(["12", "7"]), out_type=tf.int32))
try:
    tf.strings.to_number(tf.constant("abc"))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
