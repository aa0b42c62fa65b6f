/* tfe_py._capsule: the few CPython operations the binding needs and cffi
 * cannot give (cffi has no PyObject* type and releases the GIL around
 * calls): PyCapsules for DLPack interop (tfe_py/dlpack.py), and an
 * uninitialised bytes object that a file read can fill in place
 * (tfe_py/io.py). It links nothing from libtfe: an
 * unconsumed capsule's destructor calls the DLManagedTensor's own deleter. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#include "tfe/dlpack.h"

/* Capsule names must outlive the capsule: static storage. */
static const char kLive[] = "dltensor";
static const char kUsed[] = "used_dltensor";

static void capsule_destructor(PyObject* capsule) {
  /* Only a capsule nobody consumed still owns its tensor. */
  if (PyCapsule_IsValid(capsule, kLive)) {
    DLManagedTensor* m = (DLManagedTensor*)PyCapsule_GetPointer(capsule, kLive);
    if (m != NULL && m->deleter != NULL) m->deleter(m);
  }
  PyErr_Clear();
}

/* new(address) -> a "dltensor" capsule owning the DLManagedTensor. */
static PyObject* capsule_new(PyObject* self, PyObject* arg) {
  void* p = PyLong_AsVoidPtr(arg);
  (void)self;
  if (p == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_ValueError, "NULL DLManagedTensor");
    }
    return NULL;
  }
  return PyCapsule_New(p, kLive, capsule_destructor);
}

/* is_live(obj) -> True for an unconsumed "dltensor" capsule. */
static PyObject* capsule_is_live(PyObject* self, PyObject* obj) {
  (void)self;
  return PyBool_FromLong(PyCapsule_IsValid(obj, kLive));
}

/* pointer(capsule) -> address of an unconsumed capsule's tensor. */
static PyObject* capsule_pointer(PyObject* self, PyObject* obj) {
  void* p;
  (void)self;
  p = PyCapsule_GetPointer(obj, kLive);
  if (p == NULL) return NULL;
  return PyLong_FromVoidPtr(p);
}

/* mark(capsule, used) -> renames it "used_dltensor" (True) or back. */
static PyObject* capsule_mark(PyObject* self, PyObject* args) {
  PyObject* capsule;
  int used;
  (void)self;
  if (!PyArg_ParseTuple(args, "Op", &capsule, &used)) return NULL;
  if (PyCapsule_SetName(capsule, used ? kUsed : kLive) != 0) return NULL;
  Py_RETURN_NONE;
}

/* free(address) -> releases memory tfe allocated with malloc for Python. */
static PyObject* capsule_free(PyObject* self, PyObject* arg) {
  void* p = PyLong_AsVoidPtr(arg);
  (void)self;
  if (p == NULL && PyErr_Occurred()) return NULL;
  free(p);
  Py_RETURN_NONE;
}

/* uninit_bytes(n) -> a new bytes object of n bytes, contents undefined;
 * the caller fills it before anyone else sees it. */
static PyObject* uninit_bytes(PyObject* self, PyObject* arg) {
  Py_ssize_t n = PyLong_AsSsize_t(arg);
  (void)self;
  if (n < 0) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "negative size");
    return NULL;
  }
  return PyBytes_FromStringAndSize(NULL, n);
}

static PyMethodDef kMethods[] = {
    {"uninit_bytes", uninit_bytes, METH_O, "Uninitialised bytes of size n."},
    {"new", capsule_new, METH_O, "A 'dltensor' capsule owning the address."},
    {"is_live", capsule_is_live, METH_O, "True for an unused 'dltensor'."},
    {"pointer", capsule_pointer, METH_O, "Address held by a 'dltensor'."},
    {"mark", capsule_mark, METH_VARARGS, "Rename to used_dltensor or back."},
    {"free", capsule_free, METH_O, "free() an address tfe malloc'ed."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef kModule = {PyModuleDef_HEAD_INIT, "_capsule",
                                     "PyCapsule helpers for DLPack.", -1,
                                     kMethods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__capsule(void) { return PyModule_Create(&kModule); }
