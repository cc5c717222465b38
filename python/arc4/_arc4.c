// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * arc4._arc4: arc4_stream (arc4_stream(3)) for Python, over libarc4.
 *
 * _arc4.Stream holds one arc4_stream; its methods are the C calls of the
 * same names.  It is subclassable: arc4.Stream adds what pickling needs
 * (the key, stream number and split path the C stream does not reveal).
 *
 * _bitgen_capsule() gives numpy's BitGenerator interface, a "BitGenerator"
 * capsule around numpy's bitgen_t (four function pointers and a state
 * pointer; the layout of numpy/random/bitgen.h, written here so that
 * building needs no numpy headers).  Its state is the Python object, not
 * the C stream, so that _assign() can replace the stream under a
 * numpy Generator that copied the bitgen_t.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include <arc4random.h>

typedef struct {
	void *state;
	uint64_t (*next_uint64)(void *st);
	uint32_t (*next_uint32)(void *st);
	double (*next_double)(void *st);
	uint64_t (*next_raw)(void *st);
} arc4_bitgen;

typedef struct {
	PyObject_HEAD
	arc4_stream *s;
	arc4_bitgen bitgen;
} StreamObject;

static PyTypeObject StreamType;

static uint64_t bitgen_u64(void *st)
{
	return arc4_stream_u64(((StreamObject *)st)->s);
}

static uint32_t bitgen_u32(void *st)
{
	return arc4_stream_u32(((StreamObject *)st)->s);
}

static double bitgen_double(void *st)
{
	return arc4_stream_double(((StreamObject *)st)->s);
}

static int Stream_init(StreamObject *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "key", "stream", NULL };
	unsigned long long stream = 0;
	PyObject *num = NULL;
	arc4_stream *s;
	Py_buffer key;

	/* Not "K": it would take 2**64 as 0 and -1 as 2**64 - 1. */
	if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|O", names, &key, &num))
		return -1;
	if (num)
		stream = PyLong_AsUnsignedLongLong(num);
	if (num && stream == (unsigned long long)-1 && PyErr_Occurred()) {
		PyBuffer_Release(&key);
		return -1;
	}
	if (key.len != 32) {
		PyBuffer_Release(&key);
		PyErr_SetString(PyExc_ValueError, "the key is 32 bytes");
		return -1;
	}
	s = arc4_stream_new(key.buf, stream);
	PyBuffer_Release(&key);
	if (!s) {
		PyErr_NoMemory();
		return -1;
	}
	arc4_stream_free(self->s);
	self->s = s;
	return 0;
}

static PyObject *Stream_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	StreamObject *self = (StreamObject *)type->tp_alloc(type, 0);

	(void)args;
	(void)kw;
	if (!self)
		return NULL;
	self->s = NULL;
	self->bitgen.state = self;
	self->bitgen.next_uint64 = bitgen_u64;
	self->bitgen.next_uint32 = bitgen_u32;
	self->bitgen.next_double = bitgen_double;
	self->bitgen.next_raw = bitgen_u64;
	return (PyObject *)self;
}

static void Stream_dealloc(StreamObject *self)
{
	arc4_stream_free(self->s);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(StreamObject *self)
{
	if (self->s)
		return 1;
	PyErr_SetString(PyExc_ValueError, "Stream.__init__ was not called");
	return 0;
}

static PyObject *Stream_buf(StreamObject *self, PyObject *arg)
{
	Py_ssize_t n = PyLong_AsSsize_t(arg);
	PyObject *b;

	if (n == -1 && PyErr_Occurred())
		return NULL;
	if (n < 0) {
		PyErr_SetString(PyExc_ValueError, "a negative length");
		return NULL;
	}
	if (!ready(self))
		return NULL;
	b = PyBytes_FromStringAndSize(NULL, n);
	if (b)
		arc4_stream_buf(self->s, PyBytes_AS_STRING(b), n);
	return b;
}

static PyObject *Stream_u32(StreamObject *self, PyObject *unused)
{
	(void)unused;
	if (!ready(self))
		return NULL;
	return PyLong_FromUnsignedLong(arc4_stream_u32(self->s));
}

static PyObject *Stream_u64(StreamObject *self, PyObject *unused)
{
	(void)unused;
	if (!ready(self))
		return NULL;
	return PyLong_FromUnsignedLongLong(arc4_stream_u64(self->s));
}

static PyObject *Stream_uniform(StreamObject *self, PyObject *arg)
{
	unsigned long bound = PyLong_AsUnsignedLong(arg);

	if (bound == (unsigned long)-1 && PyErr_Occurred())
		return NULL;
	if (bound > UINT32_MAX) {
		PyErr_SetString(PyExc_OverflowError, "the bound is below 2**32");
		return NULL;
	}
	if (!ready(self))
		return NULL;
	return PyLong_FromUnsignedLong(arc4_stream_uniform(self->s, bound));
}

static PyObject *Stream_double(StreamObject *self, PyObject *unused)
{
	(void)unused;
	if (!ready(self))
		return NULL;
	return PyFloat_FromDouble(arc4_stream_double(self->s));
}

static PyObject *Stream_tell(StreamObject *self, PyObject *unused)
{
	(void)unused;
	if (!ready(self))
		return NULL;
	return PyLong_FromUnsignedLongLong(arc4_stream_tell(self->s));
}

static PyObject *Stream_seek(StreamObject *self, PyObject *arg)
{
	unsigned long long pos = PyLong_AsUnsignedLongLong(arg);

	if (pos == (unsigned long long)-1 && PyErr_Occurred())
		return NULL;
	if (!ready(self))
		return NULL;
	arc4_stream_seek(self->s, pos);
	Py_RETURN_NONE;
}

/* The child, of the caller's type, without calling its __init__. */
static PyObject *Stream_split(StreamObject *self, PyObject *arg)
{
	unsigned long long index = PyLong_AsUnsignedLongLong(arg);
	PyTypeObject *type = Py_TYPE(self);
	StreamObject *c;

	if (index == (unsigned long long)-1 && PyErr_Occurred())
		return NULL;
	if (!ready(self))
		return NULL;
	c = (StreamObject *)type->tp_new(type, NULL, NULL);
	if (!c)
		return NULL;
	c->s = arc4_stream_split(self->s, index);
	if (!c->s) {
		Py_DECREF(c);
		return PyErr_NoMemory();
	}
	return (PyObject *)c;
}

/* Take other's stream (other is left without one): rekey in place. */
static PyObject *Stream_assign(StreamObject *self, PyObject *arg)
{
	StreamObject *other;

	if (!PyObject_TypeCheck(arg, &StreamType)) {
		PyErr_SetString(PyExc_TypeError, "a Stream");
		return NULL;
	}
	other = (StreamObject *)arg;
	if (!ready(other))
		return NULL;
	arc4_stream_free(self->s);
	self->s = other->s;
	other->s = NULL;
	Py_RETURN_NONE;
}

/* The capsule keeps the object alive: its name's pointer is into it. */
static void capsule_release(PyObject *cap)
{
	Py_XDECREF((PyObject *)PyCapsule_GetContext(cap));
}

static PyObject *Stream_capsule(StreamObject *self, PyObject *unused)
{
	PyObject *cap;

	(void)unused;
	cap = PyCapsule_New(&self->bitgen, "BitGenerator", capsule_release);
	if (!cap)
		return NULL;
	Py_INCREF(self);
	if (PyCapsule_SetContext(cap, self) != 0) {
		Py_DECREF(self);
		Py_DECREF(cap);
		return NULL;
	}
	return cap;
}

static PyMethodDef Stream_methods[] = {
	{ "buf", (PyCFunction)Stream_buf, METH_O, "buf(n): the next n bytes" },
	{ "u32", (PyCFunction)Stream_u32, METH_NOARGS,
	  "the next 4 bytes, little-endian" },
	{ "u64", (PyCFunction)Stream_u64, METH_NOARGS,
	  "the next 8 bytes, little-endian" },
	{ "uniform", (PyCFunction)Stream_uniform, METH_O,
	  "uniform(n): 0 to n - 1, arc4random_uniform()'s rule" },
	{ "double", (PyCFunction)Stream_double, METH_NOARGS,
	  "(u64 >> 11) * 2**-53" },
	{ "tell", (PyCFunction)Stream_tell, METH_NOARGS, "the byte position" },
	{ "seek", (PyCFunction)Stream_seek, METH_O,
	  "seek(p): go to byte p (modulo 2**64)" },
	{ "split", (PyCFunction)Stream_split, METH_O,
	  "split(i): the child stream i" },
	{ "_assign", (PyCFunction)Stream_assign, METH_O,
	  "take another Stream's state (which is left empty)" },
	{ "_bitgen_capsule", (PyCFunction)Stream_capsule, METH_NOARGS,
	  "numpy's BitGenerator capsule over this stream" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject StreamType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "arc4._arc4.Stream",
	.tp_doc = "Stream(key, stream=0): arc4_stream(3)",
	.tp_basicsize = sizeof(StreamObject),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_new = Stream_new,
	.tp_init = (initproc)Stream_init,
	.tp_dealloc = (destructor)Stream_dealloc,
	.tp_methods = Stream_methods,
};

static struct PyModuleDef arc4_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "arc4._arc4",
	.m_doc = "arc4_stream(3) over libarc4",
	.m_size = -1,
};

PyMODINIT_FUNC PyInit__arc4(void)
{
	PyObject *m;

	if (PyType_Ready(&StreamType) < 0)
		return NULL;
	m = PyModule_Create(&arc4_module);
	if (!m)
		return NULL;
	Py_INCREF(&StreamType);
	if (PyModule_AddObject(m, "Stream", (PyObject *)&StreamType) < 0) {
		Py_DECREF(&StreamType);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
