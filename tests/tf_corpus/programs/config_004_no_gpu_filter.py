import tensorflow as tf

print(tf.config.list_physical_devices("NOSUCHDEVICE"))
print(all(d.device_type == "CPU" for d in tf.config.list_physical_devices("CPU")))
