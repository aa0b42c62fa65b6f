import tensorflow as tf

x = tf.range(10)
print(x[2:5])
print(x[:3])
print(x[7:])
print(x[::3])
print(x[-3:])
