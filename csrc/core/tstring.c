/* The exported TF_String* functions: thin, NULL-safe wrappers over the
 * inline TF_TString_* family. */
#include "tensorflow/c/tf_tstring.h"

void TF_StringInit(TF_TString* t) {
  if (t != NULL) TF_TString_Init(t);
}

void TF_StringCopy(TF_TString* dst, const char* src, size_t size) {
  if (dst == NULL || (src == NULL && size != 0)) return;
  TF_TString_Copy(dst, src, size);
}

void TF_StringAssignView(TF_TString* dst, const char* src, size_t size) {
  if (dst == NULL || (src == NULL && size != 0)) return;
  TF_TString_AssignView(dst, src, size);
}

const char* TF_StringGetDataPointer(const TF_TString* tstr) {
  return tstr == NULL ? NULL : TF_TString_GetDataPointer(tstr);
}

TF_TString_Type TF_StringGetType(const TF_TString* str) {
  return str == NULL ? TF_TSTR_SMALL : TF_TString_GetType(str);
}

size_t TF_StringGetSize(const TF_TString* tstr) {
  return tstr == NULL ? 0 : TF_TString_GetSize(tstr);
}

size_t TF_StringGetCapacity(const TF_TString* str) {
  return str == NULL ? 0 : TF_TString_GetCapacity(str);
}

void TF_StringDealloc(TF_TString* tstr) {
  if (tstr != NULL) TF_TString_Dealloc(tstr);
}
