import tensorflow as tf

x = tf.ones([2, 3])
print(tf.nn.dropout(x, rate=0.0))
try:
    tf.nn.dropout(x, rate=1.5)
except ValueError as e:
    print(type(e).__name__)
