import tensorflow as tf

try:
    tf.io.read_file("this_file_does_not_exist.txt")
except tf.errors.NotFoundError as e:
    print(type(e).__name__)
