import tensorflow as tf

try:
    tf.debugging.assert_positive(tf.constant([1, -1]), message="need positive")
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
    print("need positive" in str(e))
tf.debugging.assert_non_negative(tf.constant([0, 1]))
print("ok")
