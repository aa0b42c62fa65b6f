import tensorflow as tf

print(tf.io.decode_raw(tf.constant(b"\x01\x02\x03\x04"), tf.uint8))
rec = tf.io.decode_csv(tf.constant(["1,2.5,a"]), record_defaults=[[0], [0.0], [""]])
for r in rec:
    print(r)
