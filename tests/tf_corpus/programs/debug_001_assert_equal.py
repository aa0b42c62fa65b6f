import tensorflow as tf

tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2]))
print("ok")
try:
    tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
    print("Condition x == y did not hold" in e.message)
