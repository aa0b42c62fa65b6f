import tensorflow as tf

print(tf.linspace(0.0, 1.0, 5))
print(tf.linspace(-1.0, 1.0, 3))
