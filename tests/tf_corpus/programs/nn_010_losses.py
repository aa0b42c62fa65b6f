import tensorflow as tf

print(tf.nn.l2_loss(tf.constant([1.0, 2.0, 3.0])))
print(tf.nn.weighted_cross_entropy_with_logits([1.0], [0.5], pos_weight=2.0))
print(tf.nn.log_poisson_loss(tf.constant([1.0]), tf.constant([0.3])))
