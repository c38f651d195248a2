/*
 * td_core.h - search an ELF core file (gcore's) for secret values, and say
 * where each one found lies: the mapping (from a copy of /proc/PID/maps
 * taken with the dump), whose thread's stack it is, or which thread's
 * register note holds it.
 *
 * A value is searched as 16-byte windows every 8 bytes, in its big-endian
 * byte order and reversed (the little-endian order, which is also the
 * order of little-endian limbs of any width), so a key split across
 * temporaries, or half overwritten, is still found.
 */
#ifndef TD_CORE_H
#define TD_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct td_secret {
	const char *name;
	const uint8_t *p;
	size_t len;              /* >= 16 */
} td_secret;

/* Number of windows found in the core file (0: none), or -1 if it cannot
 * be read as an ELF core.  maps is a copy of /proc/PID/smaps taken with
 * the dump; pid the dumped process (its threads' names are read while it
 * runs).  Prints one line per secret, byte order and place, naming the
 * mapping and thread.  Not counted: findings in the registers of a
 * thread stopped inside the engine (its stack pointer in a mapping marked
 * not to be dumped), which hold the key of the operation they run. */
long td_core_scan(const char *core, const char *maps, pid_t pid,
                  const td_secret *s, size_t ns);

#endif
