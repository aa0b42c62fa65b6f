import tensorflow as tf

tf.nest.assert_same_structure([1, (2, 3)], [4, (5, 6)])
print("same")
try:
    tf.nest.assert_same_structure([1, 2], [1, [2]])
except (ValueError, TypeError) as e:
    print(type(e).__name__)
print(tf.nest.is_nested([1]), tf.nest.is_nested(1))
