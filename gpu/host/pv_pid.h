/*
 * pv_pid.h - this process's id without a system call on the request path.
 *
 * Every layer that holds per-process state (the token's initialisation,
 * the vault handle, the rings) checks on each call that it is still the
 * process that made it: a forked child must not use its parent's worker
 * threads, GPU context or pvaultd connection.  getpid() is a system call
 * (glibc no longer caches it), and a digest made five of them.  pv_pid()
 * reads the id from a page marked MADV_WIPEONFORK: a child of fork starts
 * with that page zeroed (whether or not atfork handlers ran, as with
 * _Fork or a raw clone) and reads getpid() once again.  Where the kernel
 * refuses the advice (before Linux 4.14), every call is getpid().
 */
#ifndef PV_PID_H
#define PV_PID_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

pid_t pv_pid(void);

#ifdef __cplusplus
}
#endif

#endif
