/*
 * pv_ringstat.h - where a request's time goes, for operators and for the
 * benchmarks: with PIXELVAULT_RING_STATS=1 in the environment, every
 * request that a GPU completes is timed in four stamps
 *
 *   published (host)  ->  claimed by a block (GPU)  ->  completed (GPU)
 *                     ->  its result taken by the producer (host)
 *
 * and the vault's close prints, on stderr, percentiles of the wait before
 * a block claims it (queue), the GPU's time (execute) and the time until
 * a host thread takes the result (notify).  The GPU's clock (%globaltimer)
 * and the host's are different clocks: the offset between them is taken
 * as the smallest (claim - publish) seen, so queue is measured from the
 * fastest claim of the run (a few microseconds) and notify includes it.
 * Off (no stamps kept, no cost but one branch) unless the variable is set.
 */
#ifndef PV_RINGSTAT_H
#define PV_RINGSTAT_H

#include <stdint.h>

typedef struct pv_ringstat pv_ringstat;

/* NULL unless PIXELVAULT_RING_STATS is set (and memory is available). */
pv_ringstat *pvrs_open(void);
/* Host clock for the stamps (CLOCK_REALTIME, ns). */
uint64_t pvrs_now(void);
/* One request: host publish, GPU claim and done (0 = not stamped: CPU
 * backend), host take. */
void pvrs_add(pv_ringstat *s, uint64_t pub, uint64_t claim, uint64_t done, uint64_t take);
/* Prints the summary (label names the vault) and frees s. */
void pvrs_close(pv_ringstat *s, const char *label);

#endif
