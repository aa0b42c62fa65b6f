import tensorflow as tf

x = tf.constant([-2.0, -0.5, 0.0, 0.5, 2.0])
print(tf.nn.relu(x))
print(tf.nn.relu6(x * 4))
print(tf.nn.leaky_relu(x, alpha=0.1))
print(tf.nn.elu(x))
print(tf.nn.selu(x))
