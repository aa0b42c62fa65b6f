import tensorflow as tf

try:
    tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 2]))
except (tf.errors.InvalidArgumentError, ValueError) as e:
    print(type(e).__name__)
