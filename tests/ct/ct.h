/*
 * ct.h - constant-time checks in the ctgrind style.
 *
 * A ct test program marks secret inputs "undefined" for valgrind's memcheck
 * with CT_SECRET, runs a primitive, and marks outputs defined again with
 * CT_PUBLIC before looking at them.  Run under
 *   valgrind --error-exitcode=1 PROG
 * any branch or memory index that depends on a secret is reported as a use of
 * an uninitialised value and fails the test.  Without valgrind the macros do
 * nothing and the program only checks its own results.
 */
#ifndef PV_CT_H
#define PV_CT_H

#include <stdio.h>
#include <valgrind/memcheck.h>

#define CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define CT_PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define CT_UNDER_VALGRIND() RUNNING_ON_VALGRIND

/* Each ct program prints one line per primitive and a closing line. */
#define CT_REPORT(name) fprintf(stderr, "ct: %s checked\n", (name))

#endif
