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
 * numpy Generator that copied the bitgen_t; the capsule holds a
 * reference to the object, which the Generator's bit generator holds.
 *
 * Locking: the C stream has no lock, and numpy calls the bitgen_t's
 * functions with the GIL released, holding only the bit generator's
 * `lock`.  So the lock belongs to the Stream (its read-only `lock`, an
 * RLock made with the object), every arc4.numpy.ARC4 over a Stream uses
 * that one lock, and every method here that touches the C stream takes
 * it: holding the GIL serialises these methods against each other, not
 * against a numpy draw in another thread.  A Stream gets its C stream
 * once (__init__ again raises) and keeps one until it is freed:
 * _assign() swaps two Streams' C streams, never leaves one without.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <arc4random.h>

/*
 * libarc4's own HChaCha20 (lib/chacha20.c), not exported: linked from
 * libarc4.a, so the extension computes a split child's key with the
 * library's code and the library exports nothing new.
 */
void arc4_hchacha20(const uint8_t key[32], const uint8_t in[16],
		    const uint8_t c[16], uint8_t out[32]);

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
	PyObject *lock;		/* a _thread.RLock, for the object's life */
	arc4_bitgen bitgen;
} StreamObject;

static PyTypeObject StreamType;
static PyObject *rlock_type;	/* _thread.RLock */

static int stream_lock(StreamObject *self)
{
	PyObject *r = PyObject_CallMethod(self->lock, "acquire", NULL);

	if (!r)
		return -1;
	Py_DECREF(r);
	return 0;
}

/* Keeps a pending exception (the caller's error) across the release. */
static void stream_unlock(StreamObject *self)
{
	PyObject *type, *value, *tb, *r;

	PyErr_Fetch(&type, &value, &tb);
	r = PyObject_CallMethod(self->lock, "release", NULL);
	if (r)
		Py_DECREF(r);
	else
		PyErr_WriteUnraisable(self->lock);
	PyErr_Restore(type, value, tb);
}

/* An integer, or an object with __index__ (numpy's integers), as a u64. */
static int get_u64(PyObject *o, unsigned long long *v)
{
	PyObject *i = PyNumber_Index(o);

	if (!i)
		return -1;
	/* Not PyLong_AsUnsignedLongLongMask: -1 and 2**64 raise. */
	*v = PyLong_AsUnsignedLongLong(i);
	Py_DECREF(i);
	if (*v == (unsigned long long)-1 && PyErr_Occurred())
		return -1;
	return 0;
}

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

	/*
	 * Once only: a numpy draw may be using the C stream with the GIL
	 * released, and a Stream never changes its key in place.
	 */
	if (self->s) {
		PyErr_SetString(PyExc_TypeError,
				"Stream.__init__ on an initialised Stream");
		return -1;
	}
	/* Not "K": it would take 2**64 as 0 and -1 as 2**64 - 1. */
	if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|O", names, &key, &num))
		return -1;
	if (num && get_u64(num, &stream) < 0) {
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
	if (self->s) {		/* initialised meanwhile, by another thread */
		arc4_stream_free(s);
		PyErr_SetString(PyExc_TypeError,
				"Stream.__init__ on an initialised Stream");
		return -1;
	}
	self->s = s;
	return 0;
}

/* A new object of type, without a C stream: tp_alloc, not tp_new. */
static StreamObject *stream_alloc(PyTypeObject *type)
{
	StreamObject *self = (StreamObject *)type->tp_alloc(type, 0);

	if (!self)
		return NULL;
	self->s = NULL;
	self->bitgen.state = self;
	self->bitgen.next_uint64 = bitgen_u64;
	self->bitgen.next_uint32 = bitgen_u32;
	self->bitgen.next_double = bitgen_double;
	self->bitgen.next_raw = bitgen_u64;
	self->lock = PyObject_CallNoArgs(rlock_type);
	if (!self->lock) {
		Py_DECREF(self);
		return NULL;
	}
	return self;
}

static PyObject *Stream_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	(void)args;
	(void)kw;
	return (PyObject *)stream_alloc(type);
}

static void Stream_dealloc(StreamObject *self)
{
	arc4_stream_free(self->s);
	Py_XDECREF(self->lock);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(StreamObject *self)
{
	if (self->s)
		return 1;
	PyErr_SetString(PyExc_ValueError, "Stream.__init__ was not called");
	return 0;
}

/* ready() and the lock taken (0), or an exception raised (-1). */
static int enter(StreamObject *self)
{
	if (!ready(self))
		return -1;
	return stream_lock(self);
}

static PyObject *Stream_buf(StreamObject *self, PyObject *arg)
{
	Py_ssize_t n;
	PyObject *b, *i = PyNumber_Index(arg);

	if (!i)
		return NULL;
	n = PyLong_AsSsize_t(i);
	Py_DECREF(i);
	if (n == -1 && PyErr_Occurred())
		return NULL;
	if (n < 0) {
		PyErr_SetString(PyExc_ValueError, "a negative length");
		return NULL;
	}
	if (!ready(self))
		return NULL;
	b = PyBytes_FromStringAndSize(NULL, n);
	if (!b || stream_lock(self) < 0) {
		Py_XDECREF(b);
		return NULL;
	}
	arc4_stream_buf(self->s, PyBytes_AS_STRING(b), n);
	stream_unlock(self);
	return b;
}

static PyObject *Stream_u32(StreamObject *self, PyObject *unused)
{
	uint32_t v;

	(void)unused;
	if (enter(self) < 0)
		return NULL;
	v = arc4_stream_u32(self->s);
	stream_unlock(self);
	return PyLong_FromUnsignedLong(v);
}

static PyObject *Stream_u64(StreamObject *self, PyObject *unused)
{
	uint64_t v;

	(void)unused;
	if (enter(self) < 0)
		return NULL;
	v = arc4_stream_u64(self->s);
	stream_unlock(self);
	return PyLong_FromUnsignedLongLong(v);
}

static PyObject *Stream_uniform(StreamObject *self, PyObject *arg)
{
	unsigned long long bound;
	uint32_t v;

	if (get_u64(arg, &bound) < 0)
		return NULL;
	if (bound > UINT32_MAX) {
		PyErr_SetString(PyExc_OverflowError, "the bound is below 2**32");
		return NULL;
	}
	if (enter(self) < 0)
		return NULL;
	v = arc4_stream_uniform(self->s, (uint32_t)bound);
	stream_unlock(self);
	return PyLong_FromUnsignedLong(v);
}

static PyObject *Stream_double(StreamObject *self, PyObject *unused)
{
	double v;

	(void)unused;
	if (enter(self) < 0)
		return NULL;
	v = arc4_stream_double(self->s);
	stream_unlock(self);
	return PyFloat_FromDouble(v);
}

static PyObject *Stream_tell(StreamObject *self, PyObject *unused)
{
	uint64_t v;

	(void)unused;
	if (enter(self) < 0)
		return NULL;
	v = arc4_stream_tell(self->s);
	stream_unlock(self);
	return PyLong_FromUnsignedLongLong(v);
}

static PyObject *Stream_seek(StreamObject *self, PyObject *arg)
{
	unsigned long long pos;

	if (get_u64(arg, &pos) < 0)
		return NULL;
	if (enter(self) < 0)
		return NULL;
	arc4_stream_seek(self->s, pos);
	stream_unlock(self);
	Py_RETURN_NONE;
}

/*
 * The child, of the caller's type, without calling its __new__ or
 * __init__ (a subclass's may take other arguments).
 */
static PyObject *Stream_split(StreamObject *self, PyObject *arg)
{
	unsigned long long index;
	StreamObject *c;

	if (get_u64(arg, &index) < 0)
		return NULL;
	if (!ready(self))
		return NULL;
	c = stream_alloc(Py_TYPE(self));
	if (!c)
		return NULL;
	if (stream_lock(self) < 0) {
		Py_DECREF(c);
		return NULL;
	}
	c->s = arc4_stream_split(self->s, index);
	stream_unlock(self);
	if (!c->s) {
		Py_DECREF(c);
		return PyErr_NoMemory();
	}
	return (PyObject *)c;
}

/*
 * Swap C streams with other: this Stream continues other's (rekeyed in
 * place, under the numpy Generators that hold its capsule), other gets
 * this one's.  Neither is ever left without one.  Both locks, in
 * address order (two threads swapping a pair cannot deadlock).
 */
static PyObject *Stream_assign(StreamObject *self, PyObject *arg)
{
	StreamObject *other, *first, *second;
	arc4_stream *t;

	if (!PyObject_TypeCheck(arg, &StreamType)) {
		PyErr_SetString(PyExc_TypeError, "a Stream");
		return NULL;
	}
	other = (StreamObject *)arg;
	if (!ready(self) || !ready(other))
		return NULL;
	if (other == self)
		Py_RETURN_NONE;
	first = self < other ? self : other;
	second = self < other ? other : self;
	if (stream_lock(first) < 0)
		return NULL;
	if (stream_lock(second) < 0) {
		stream_unlock(first);
		return NULL;
	}
	t = self->s;
	self->s = other->s;
	other->s = t;
	stream_unlock(second);
	stream_unlock(first);
	Py_RETURN_NONE;
}

/* The capsule keeps the object alive: its pointer is into it. */
static void capsule_release(PyObject *cap)
{
	Py_XDECREF((PyObject *)PyCapsule_GetContext(cap));
}

/*
 * Only over an initialised Stream: the bitgen_t's functions run without
 * the GIL and cannot raise, so the C stream must be there before numpy
 * can call them, and it stays (see the top of this file).
 */
static PyObject *Stream_capsule(StreamObject *self, PyObject *unused)
{
	PyObject *cap;

	(void)unused;
	if (!ready(self))
		return NULL;
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
	  "swap C streams with another Stream" },
	{ "_bitgen_capsule", (PyCFunction)Stream_capsule, METH_NOARGS,
	  "numpy's BitGenerator capsule over this stream" },
	{ NULL, NULL, 0, NULL },
};

static PyMemberDef Stream_members[] = {
	{ "lock", T_OBJECT_EX, offsetof(StreamObject, lock), READONLY,
	  "the RLock every method and numpy bit generator over it takes" },
	{ NULL, 0, 0, 0, NULL },
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
	.tp_members = Stream_members,
};

/*
 * The key of child `index` of the stream (key, stream): arc4_stream(3)'s
 * split rule, which arc4_stream_split() applies to the C stream's key.
 * A child is the stream of that key and stream number 0, so a Python
 * child pickles as its own key, never as its parent's.
 */
static PyObject *split_key(PyObject *mod, PyObject *args)
{
	static const uint8_t c[16] = {
		'a', 'r', 'c', '4', '-', 's', 'p', 'l',
		'i', 't', '-', 'k', 'e', 'y', '-', '1',
	};
	unsigned long long stream, index;
	PyObject *ostream, *oindex, *r;
	uint8_t in[16], out[32];
	Py_buffer key;
	int i;

	(void)mod;
	if (!PyArg_ParseTuple(args, "y*OO", &key, &ostream, &oindex))
		return NULL;
	if (get_u64(ostream, &stream) < 0 || get_u64(oindex, &index) < 0 ||
	    key.len != 32) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_ValueError, "the key is 32 bytes");
		PyBuffer_Release(&key);
		return NULL;
	}
	for (i = 0; i < 8; i++) {
		in[i] = (uint8_t)(stream >> 8 * i);
		in[8 + i] = (uint8_t)(index >> 8 * i);
	}
	arc4_hchacha20(key.buf, in, c, out);
	PyBuffer_Release(&key);
	r = PyBytes_FromStringAndSize((const char *)out, 32);
	explicit_bzero(out, sizeof(out));
	return r;
}

static PyMethodDef module_methods[] = {
	{ "_split_key", split_key, METH_VARARGS,
	  "_split_key(key, stream, i): the key of child i of (key, stream)" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef arc4_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "arc4._arc4",
	.m_doc = "arc4_stream(3) over libarc4",
	.m_size = -1,
	.m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__arc4(void)
{
	PyObject *m, *thread;

	thread = PyImport_ImportModule("_thread");
	if (!thread)
		return NULL;
	rlock_type = PyObject_GetAttrString(thread, "RLock");
	Py_DECREF(thread);
	if (!rlock_type)
		return NULL;
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
