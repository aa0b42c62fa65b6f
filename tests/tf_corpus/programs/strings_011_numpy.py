import tensorflow as tf

t = tf.constant(["ab", "c"])
print(t.numpy())
print(t[0].numpy())
print(tf.constant("x").numpy().decode())
