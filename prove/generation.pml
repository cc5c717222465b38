/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * generation.pml: the generation protocol of arc4, for Spin.
 *
 * One thread of a process that draws strong values through the shim's
 * per-thread buffer (lib/shim.h, lib/buffer.c), signal handlers that
 * interrupt it between any two of its loads and stores and draw or fork
 * themselves, and the kernel (kmod/) that copies the machine: it marks
 * the strong streams for a new key, then moves the generation page.
 * doc/prove.md lists which C function each step stands for and what the
 * model leaves out.
 *
 * A value is a byte: 0 for zeroed bytes, else PRESENT with the epoch of
 * the key it was made under (the number of machine copies the stream had
 * seen: a value of an epoch below k is one that the copy made at the k-th
 * move holds too), PARENT once a fork copied it into a child, and WATCHED
 * for the one value, chosen when it is made, whose path the run follows.
 * The code never looks at a value but to copy or zero it, so watching
 * each value in turn (the choice is the model's, every run) checks every
 * value.  A value is committed when a call's result is settled (the
 * take's last check, or the read that serves a call directly); the
 * assertions in commit() are the properties:
 *
 *   never zero   no call returns zeroed bytes;
 *   never twice  no value is returned twice in a process (a handler that
 *                interrupted a call, or the call after it, included);
 *   not parent's a forked child returns no value that existed before the
 *                fork: the parent returned it, holds it or will return it;
 *   not copied   a call whose generation check saw the k-th move (or whose
 *                read began after it) returns no value of an epoch below k.
 *
 * Build with -DMUTANT_<NAME> for one of the faults at the end of this
 * file: each must give a counterexample.
 */

#define NSLOT	2	/* values a buffer holds */
#ifndef MAXMOVE
#define MAXMOVE	2	/* machine copies */
#endif
#ifndef NCALLS
#define NCALLS	3	/* the thread's own calls */
#endif
#ifndef MAXSIG
#define MAXSIG	2	/* signal handlers run, nested or one after the other */
#endif

/* What arc4_tls_strong points at. */
#define NONE	0	/* arc4_strong_none */
#define BUSY	1	/* arc4_strong_busy */
#define BUF	2	/* the thread's mapping */

#define NOHOIST	255

/* The kernel: kmod/stream.c and the page of kmod/dev.c. */
byte mark;		/* arc4_vmfork_generation */
byte keyep;		/* the stream's vmfork_gen: the epoch of its key */
#ifdef MUTANT_GEN_ZERO
byte G = 0;
#else
byte G = 1;		/* the generation page's counter, never 0 */
#endif
byte moves;		/* ghost: how often G moved */

/* Values: the bits of a value byte, and the watched one's fate. */
#define PRESENT	1
#define WATCHED	2
#define PARENT	4
#define EPOCH	8	/* epoch * EPOCH */
bit watching;		/* the watched value is made */
bit wreturned;		/* and was committed */
byte reg[3];		/* each level's register copy of a taken value */

/* The thread's mapping (struct arc4_strong), zeroed when mapped. */
byte b_gen;
byte b_avail;
byte b_slot[NSLOT];

/* The thread's TLS (lib/buffer.c). */
byte tls_strong = NONE;	/* arc4_tls_strong */
bit tls_own;		/* tls_own != NULL: it is BUF */
bit tls_busy;

/* The process: a forked child. */
bit child;

/* Which level runs on the thread: 0 the thread, 1 a handler, 2 nested. */
byte running;
bit insyscall;		/* inside a read: a signal waits for its end */
byte nsig;
bit done;

/*
 * arc4_machine_copied() (kmod/main.c): the vmfork notifier, the syscore
 * resume and PM_POST_HIBERNATION, and ARC4_IOC_NEW_GENERATION (a CRIU
 * restore) call it: arc4_stream_vmforked() marks the streams, then
 * arc4_dev_gen_bump() moves the counter with a fully ordered cmpxchg.
 * The kernel runs on another CPU; its steps write mark, G and moves
 * alone, so they commute with every step of the thread that does not
 * read those.  The model takes them just before the steps that do (any
 * number of them, in order), which gives every outcome that taking them
 * anywhere gives, at a fraction of the states.
 */
bit kmid;		/* marked, not yet moved */

inline kernel()
{
	do
#ifdef MUTANT_BUMP_BEFORE_MARK
	:: !kmid && moves < MAXMOVE -> G++; moves++; kmid = 1
	:: kmid -> mark++; kmid = 0
#else
	:: !kmid && moves < MAXMOVE -> mark++; kmid = 1
	:: kmid -> G++; moves++; kmid = 0
#endif
	:: break
	od
}

inline commit(v)
{
	assert(v != 0);
	assert(!(v & WATCHED) || !wreturned);
	assert(!(v & PARENT));
	assert(v / EPOCH >= seen);
	wreturned = wreturned || (v & WATCHED)
}

/*
 * One preadv() of /dev/arc4 begins: arc4_stream_begin() under the
 * stream's mutex rekeys if the vmfork mark moved, then the bytes of the
 * read come from that key.  A signal is taken only between reads.  In
 * the no-acquire mutant the mark was loaded before the generation.
 */
inline read_begin()
{
	atomic {
		kernel();
		insyscall = 1;
		if
		:: hoisted != NOHOIST -> m = hoisted; hoisted = NOHOIST
		:: else -> m = mark
		fi;
		if
		:: keyep != m -> keyep = mark
		:: else
		fi;
		ep = keyep;
		seen = moves;
		m = 0
	}
}

inline make_value(x)
{
	if
	:: !watching -> x = PRESENT | WATCHED | ep * EPOCH; watching = 1
	:: true -> x = PRESENT | ep * EPOCH
	fi
}

/*
 * arc4_source_fill() for one value, straight into the call's result
 * (the re-entered, early and unbuffered orders): committed when the read
 * returns.
 */
inline direct()
{
	read_begin();
	atomic {
		make_value(x);
		commit(x);
		x = 0;
		ep = 0;
		insyscall = 0
	}
}

/*
 * device_read() into the whole buffer, slot after slot; it may take
 * several preadv() calls (a signal ends one early), each keyed anew.
 */
inline fill()
{
	i = 0;
	read_begin();
	do
	:: i < NSLOT ->
		atomic { make_value(x); b_slot[i] = x; x = 0; i++ };
		if
		:: i < NSLOT -> insyscall = 0; read_begin()
		:: true
		fi
	:: else -> break
	od;
	atomic { i = 0; ep = 0; insyscall = 0 }
}

/*
 * arc4_strong_take() (lib/shim.h): 1 in ok with the value committed, or
 * 0.  s is the pointer it saved; a its register copy of avail.
 */
inline take()
{
	s = tls_strong;
#ifdef MUTANT_AVAIL_BEFORE_BUSY
	a = (s == BUF -> b_avail : 0);
	tls_strong = BUSY;
#else
	tls_strong = BUSY;
	a = (s == BUF -> b_avail : 0);
#endif
	if
	:: a >= 1 ->
		sg = (s == BUF -> b_gen : 0);
		atomic { kernel(); ok = (sg == G); seen = moves; sg = 0 }
	:: else -> ok = 0
	fi;
	if
	:: ok ->
		atomic { a--; b_avail = a };
		reg[lvl] = b_slot[a];
#ifndef MUTANT_NO_TAKE_WIPE
		b_slot[a] = 0;
#endif
#ifdef MUTANT_NO_RECHECK
		atomic { commit(reg[lvl]); reg[lvl] = 0 }
#else
		atomic {
			ok = (b_gen != 0);
			if
			:: ok -> commit(reg[lvl])
			:: else
			fi;
			reg[lvl] = 0
		}
#endif
	:: else
	fi;
	atomic { tls_strong = s; s = NONE; a = 0; seen = 0 }
}

/*
 * strong_refill() (lib/buffer.c): r = 1 if the buffer now holds values
 * of the generation it recorded, r = 0 where it must not be used
 * (strong_unbuffered(): it is wiped).
 */
inline refill()
{
	a = b_avail;
	sg = b_gen;
	atomic { kernel(); r = (a >= 1 && sg == G) };
	if
	:: r
	:: else ->
		if
		:: atomic { b_gen = 0; b_avail = 0; b_slot[0] = 0; b_slot[1] = 0; r = 0 }
		:: true ->
#ifdef MUTANT_NO_ACQUIRE
			atomic { kernel(); hoisted = mark };
#endif
#ifndef MUTANT_GEN_AFTER_READ
			atomic { kernel(); g = G };
#endif
			b_avail = 0;
#if !defined(MUTANT_GEN_AFTER_READ) && !defined(MUTANT_GEN_STORE_AFTER_READ)
			b_gen = g;
#endif
			fill();
#ifdef MUTANT_GEN_AFTER_READ
			atomic { kernel(); g = G };
#endif
#if defined(MUTANT_GEN_AFTER_READ) || defined(MUTANT_GEN_STORE_AFTER_READ)
			b_gen = g;
#endif
			atomic { b_avail = NSLOT; r = 1; g = 0 }
		fi
	fi;
	atomic { a = 0; sg = 0 }
}

/*
 * strong_slow(): served = 1 with the value committed, or 0 after a
 * refill, for the caller to take.  strong_buffer() gives no buffer to a
 * thread's first draws or where strong_unbuffered() says so (either may
 * be the case at any call until the mapping is made).
 */
inline slow()
{
	s = (tls_own -> BUF : NONE);
	tb = tls_busy;
	if
#ifdef MUTANT_NO_REENTRY
	:: false ->
#else
	:: tb || (s == BUF && tls_strong == BUSY) ->
#endif
		direct();
		served = 1
	:: else ->
		tls_busy = 1;
		s = (tls_own -> BUF : NONE);
		if
		:: s == NONE ->
			if
			:: true
			:: atomic { tls_own = 1; s = BUF }
			fi
		:: else
		fi;
		tls_strong = BUSY;
		if
		:: s == NONE -> direct(); served = 1
		:: else ->
			refill();
			if
			:: r -> served = 0
			:: else -> direct(); served = 1
			fi;
			r = 0
		fi;
		tls_strong = (s == BUF -> BUF : NONE);
		tls_busy = 0
	fi;
	atomic { tb = 0; s = NONE }
}

/* arc4_strong_u32() and arc4_strong_u32_slow(). */
inline call()
{
	take();
	if
	:: !ok ->
		do
		:: slow();
			if
			:: served -> break
			:: else ->
				take();
				if
				:: ok -> break
				:: else
				fi
			fi
		od
	:: else
	fi;
	atomic { ok = 0; served = 0 }
}

/*
 * fork() from a handler: the run goes on as the parent (nothing
 * changes for it) or as the child, whose mapping MADV_WIPEONFORK
 * zeroed; the child goes on with the interrupted call.
 */
inline fork()
{
	if
	:: true
	:: atomic {
		child = 1;
#ifndef MUTANT_NO_WIPEONFORK
		b_gen = 0;
		b_avail = 0;
		b_slot[0] = 0;
		b_slot[1] = 0;
#endif
		b_slot[0] = (b_slot[0] -> b_slot[0] | PARENT : 0);
		b_slot[1] = (b_slot[1] -> b_slot[1] | PARENT : 0);
		reg[0] = (reg[0] -> reg[0] | PARENT : 0);
		reg[1] = (reg[1] -> reg[1] | PARENT : 0);
		reg[2] = (reg[2] -> reg[2] | PARENT : 0)
	   }
	fi
}

/*
 * The thread makes NCALLS calls.  A signal handler (level 1) is taken
 * between any two of its steps outside a read, one nested in it (level 2)
 * between any two of the handler's; each draws a value or forks.  While a
 * level runs, the levels below it wait (provided clauses).
 */
#define LOCALS \
	byte s, a, sg, g, m, ep, i, x, seen, n; \
	byte hoisted = NOHOIST; \
	bit ok, served, r, tb

#define HANDLER(lvl) \
end:	do \
	:: atomic { \
		running + 1 == lvl && !insyscall && nsig < MAXSIG -> \
		running = lvl; \
		nsig++ \
	   }; \
		if \
		:: call() \
		:: fork() \
		fi; \
		running = lvl - 1 \
	od

proctype Thread() provided (running == 0)
{
	LOCALS;
	byte lvl = 0;

	do
	:: n < NCALLS -> call(); n++
	:: else -> break
	od;
	done = 1
}

proctype Handler() provided (running <= 1)
{
	LOCALS;
	byte lvl = 1;

	HANDLER(1)
}

proctype Nested() provided (running >= 1)
{
	LOCALS;
	byte lvl = 2;

	HANDLER(2)
}

init
{
	atomic {
		run Thread();
		run Handler();
		run Nested()
	}
}

/* The thread's calls all return. */
ltl returns { <> done }

/*
 * The mutants, each a fault the code must not have (-DMUTANT_<NAME>):
 *
 *   AVAIL_BEFORE_BUSY     the take reads avail before it marks the buffer
 *                         busy (the signal fence between them dropped)
 *   NO_RECHECK            the take does not look at s->gen again after its
 *                         copy (a fork in between zeroed what it copied)
 *   NO_REENTRY            the slow path does not see that a call on the
 *                         thread is inside the buffer (tls_busy, the busy
 *                         sentinel) and refills or takes under it
 *   NO_ACQUIRE            the refill's generation load is relaxed: the
 *                         kernel's load of the mark may come before it
 *   GEN_AFTER_READ        the refill reads the generation after the device
 *                         read, not before
 *   GEN_STORE_AFTER_READ  the refill stores the generation it read before
 *                         the read only after it
 *   NO_TAKE_WIPE          the take leaves the bytes it copied in the
 *                         buffer (alone it breaks none of these properties;
 *                         with AVAIL_BEFORE_BUSY the double take it lets
 *                         through returns one value twice, not zeroes)
 *   NO_WIPEONFORK         the buffer is not MADV_WIPEONFORK
 *   BUMP_BEFORE_MARK      the kernel moves the page before it marks the
 *                         streams (or without the cmpxchg's full barrier)
 *   GEN_ZERO              the page's counter may be 0, the gen of a
 *                         buffer a fork wiped: the take's check after its
 *                         copy then refuses every value, and a call never
 *                         returns (the liveness search finds the cycle)
 */
