import tensorflow as tf

print(tf.constant(3).numpy() + 1)
print(type(tf.constant(True).numpy()).__name__)
print(type(tf.constant(1, tf.int64).numpy()).__name__)
print(type(tf.constant("s").numpy()).__name__)
