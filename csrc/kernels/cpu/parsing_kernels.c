/* CPU kernels: parsing and serialization ops of tf.io and tf.strings (DecodeCSV, SerializeTensor, ParseTensor, ...). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_parsing_kernels(void);

void tfe_register_cpu_parsing_kernels(void) {}
