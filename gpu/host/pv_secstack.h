/*
 * pv_secstack.h - stacks for code that handles secrets (host only).
 *
 * The vault engine keeps its working state in automatic variables: the
 * unwrapped key, its schedule, a signature's nonce, big-number
 * temporaries.  The same portable code runs in the CUDA kernel, where
 * those stay in registers; on a host thread they land on that thread's
 * stack, which a core dump includes and nothing wipes.  A pv_secstack is a
 * stack of pv_secmem's kind: its own mapping, mlock()ed (best effort, as
 * pv_secmem), MADV_DONTDUMP, MADV_WIPEONFORK, a PROT_NONE guard page below
 * it, wiped before it is unmapped.  pv_secstack_call runs a function on it
 * from any thread and comes back to the caller's stack, so code that runs
 * on a thread it does not own (the application's, in the CPU backend's
 * caller mode) still leaves nothing on that thread's stack.
 *
 * The switch is a few instructions on x86-64, and it zeroes the scratch
 * registers on the way back; elsewhere it is makecontext/swapcontext (two
 * signal-mask system calls per call), which leaves the registers as they
 * are.
 */
#ifndef PV_SECSTACK_H
#define PV_SECSTACK_H

#include <stddef.h>

typedef struct pv_secstack pv_secstack;

/* Deep enough for every engine request (docs/threat-model.md gives the
 * deepest measured, about a fifth of it) with room for a signal handler
 * of the application that interrupts one. */
#define PV_SECSTACK_SIZE (128u << 10)

/* A stack of size bytes (0: PV_SECSTACK_SIZE), or NULL (no memory). */
pv_secstack *pv_secstack_new(size_t size);
/* Wipe and unmap.  NULL is a no-op. */
void pv_secstack_free(pv_secstack *s);
/* Run fn(arg) on s and return to the caller's stack.  One thread at a
 * time per stack; fn may call pv_secstack_call on another stack. */
void pv_secstack_call(pv_secstack *s, void (*fn)(void *), void *arg);
/* Zero the registers a call may clobber: the vector registers and the
 * scratch integer ones (x86-64; elsewhere it does nothing).  For a thread
 * that copied key bytes and is about to sleep (a producer waiting for its
 * request): they would stay in its registers, and in a core dump's notes,
 * until other code overwrites them.  pv_secstack_call does it on the way
 * back from the secure stack. */
void pv_secstack_scrub(void);
/* The deepest s has been used, in bytes (what was ever written). */
size_t pv_secstack_used(const pv_secstack *s);
/* 1 if the stack is locked in RAM (mlock succeeded). */
int pv_secstack_locked(const pv_secstack *s);

#endif
