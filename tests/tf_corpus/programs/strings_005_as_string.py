import tensorflow as tf

print(tf.strings.as_string(tf.constant([1, 22])))
print(tf.strings.as_string(tf.constant([3.14159]), precision=2))
print(tf.strings.as_string(tf.constant([True, False])))
print(tf.strings.format("x={} y={}", (tf.constant(1), tf.constant([2, 3]))))
