import tensorflow as tf

devs = tf.config.list_logical_devices("CPU")
print(len(devs) > 0)
print(devs[0].device_type)
print(devs[0].name.endswith("CPU:0"))
