/* Placeholder binding: replaced by the real engine binding. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static struct PyModuleDef core_module = {PyModuleDef_HEAD_INIT, "_core", "C search core", -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
