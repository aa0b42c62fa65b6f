import tensorflow as tf

print(tf.random.experimental.stateless_fold_in([1, 2], 3))
s = tf.random.experimental.stateless_split([1, 2], num=2)
print(s)
