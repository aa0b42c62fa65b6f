/* tfe: entry point to the TF_TString declarations. */
#ifndef TENSORFLOW_TSL_PLATFORM_CTSTRING_H_
#define TENSORFLOW_TSL_PLATFORM_CTSTRING_H_

#include "tsl/platform/ctstring_internal.h"

#endif /* TENSORFLOW_TSL_PLATFORM_CTSTRING_H_ */
