import tensorflow as tf

try:
    tf.debugging.assert_rank(tf.zeros([2, 2]), 3)
except ValueError as e:
    print(type(e).__name__)
tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")), (tf.zeros([2]), ("N",))])
print("shapes ok")
