/* TF_DeviceList: an owned snapshot of a set of devices. */
#include "devices/device_list.h"

#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "tensorflow/c/eager/c_api.h"

typedef struct device_entry {
  char name[TFE_DEVICE_NAME_MAX];
  char type[TFE_DEVICE_TYPE_MAX];
  int64_t memory_bytes;
  uint64_t incarnation;
} device_entry;

struct TF_DeviceList {
  int count;
  device_entry items[1]; /* `count` entries (at least one slot) */
};

TF_DeviceList* tfe_device_list_new(const tfe_device* const* devices, int n) {
  size_t bytes = sizeof(TF_DeviceList);
  TF_DeviceList* l;
  int i;
  if (n < 0) n = 0;
  if (n > 1) bytes += sizeof(device_entry) * (size_t)(n - 1);
  l = (TF_DeviceList*)tfe_calloc(1, bytes);
  if (l == NULL) return NULL;
  l->count = n;
  for (i = 0; i < n; i++) {
    const tfe_device* d = devices[i];
    strcpy(l->items[i].name, d->name);
    strcpy(l->items[i].type, d->type);
    l->items[i].memory_bytes = d->factory->memory_bytes;
    l->items[i].incarnation = d->incarnation;
  }
  return l;
}

void TF_DeleteDeviceList(TF_DeviceList* list) { tfe_free(list); }

int TF_DeviceListCount(const TF_DeviceList* list) {
  return list == NULL ? -1 : list->count;
}

static const device_entry* entry(const TF_DeviceList* list, int index,
                                 const char* fn, TF_Status* status) {
  if (list == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: list is NULL", fn);
    return NULL;
  }
  if (index < 0 || index >= list->count) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: index out of bounds: %d (the list has %d devices)",
                    fn, index, list->count);
    return NULL;
  }
  tfe_status_ok(status);
  return &list->items[index];
}

const char* TF_DeviceListName(const TF_DeviceList* list, int index,
                              TF_Status* status) {
  const device_entry* e = entry(list, index, "TF_DeviceListName", status);
  return e == NULL ? NULL : e->name;
}

const char* TF_DeviceListType(const TF_DeviceList* list, int index,
                              TF_Status* status) {
  const device_entry* e = entry(list, index, "TF_DeviceListType", status);
  return e == NULL ? NULL : e->type;
}

int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index,
                                 TF_Status* status) {
  const device_entry* e =
      entry(list, index, "TF_DeviceListMemoryBytes", status);
  return e == NULL ? -1 : e->memory_bytes;
}

uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index,
                                  TF_Status* status) {
  const device_entry* e =
      entry(list, index, "TF_DeviceListIncarnation", status);
  return e == NULL ? 0 : e->incarnation;
}
