/* tfe's example PluggableDevice plugin (see example_device.h): platform
 * TFE_TEST_PLATFORM, device type MY_DEVICE, two arena devices whose
 * streams run on worker threads, kernels for AddV2, Mul, MatMul, BiasAdd,
 * Relu and Sum, and a no-op graph optimizer and profiler.
 *
 *   cc -shared -fPIC -I<tfe or TensorFlow include dir> example_device.c \
 *      -o libexample_device.so -lpthread */
#include "example_device.h"
