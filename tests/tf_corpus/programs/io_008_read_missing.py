import tensorflow as tf

try:
    with tf.io.gfile.GFile("no_such_dir/x.txt") as f:
        f.read()
except tf.errors.NotFoundError as e:
    print(type(e).__name__)
