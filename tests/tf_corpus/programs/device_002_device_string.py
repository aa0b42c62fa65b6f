import tensorflow as tf

x = tf.constant(1)
print(x.device.endswith("/device:CPU:0"))
print(x.cpu())
print(x.backing_device.endswith("CPU:0"))
