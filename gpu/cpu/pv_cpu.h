/*
 * pv_cpu.h - the CPU backend: the portable vault engine (gpu/engine) on N
 * host worker threads serving one request ring (gpu/engine/ve_ring.h).
 *
 * Secrets (the vault's KEK schedule and state key, the workers' DRBGs) live
 * in pv_secmem (mlocked, not dumpable, wiped on free), and the engine runs
 * on its states' stacks (pv_secstack), never on a thread's own.  The master key is
 * read from conf->master_key into pv_secmem, used once to derive the KEK
 * and wiped right after boot.  No master key (missing/invalid file) gives a
 * sealed vault: it runs, and every request but NOP answers PV_ERR_SEALED.
 *
 * Producers talk to the ring directly (gpu/client does): this header only
 * creates, describes and destroys it.  Inline mode (the application
 * forbids library threads): no worker threads; each producer executes its
 * own request (pv_cpu_execute).
 */
#ifndef PV_CPU_H
#define PV_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/host/pv_conf.h"

typedef struct pv_cpu pv_cpu;

typedef struct pv_cpu_params {
	const uint8_t *master;     /* 32 bytes, or NULL: sealed             */
	size_t master_len;
	uint32_t workers;          /* 0: one per online CPU (inline_exec:
	                              one per slot)                         */
	uint32_t nslots;           /* power of two; 0: 128                   */
	uint32_t slot_arena;       /* bytes per slot; 0: 2 MiB + 64 KiB      */
	int inline_exec;           /* no threads: producers run their own
	                              requests with pv_cpu_execute; workers
	                              = size of the pool of engine states   */
} pv_cpu_params;

/* Requests in flight.  In the caller mode a request holds its slot and an
 * engine state while its thread runs it, so a thread beyond either count
 * waits, and on a few cores those waits cost more than the work: on two
 * cores, 64 threads with 32 slots and 2 states hash about a quarter as
 * many 4 KiB messages as with 128 of each (docs/benchmarks.md).  An
 * engine state is 200 bytes, and its stack (PV_SECSTACK_SIZE) is made on
 * its first use; the ring is reserved, not touched, beyond the bytes
 * requests use. */
#define PV_CPU_DEFAULT_SLOTS 128u
#define PV_CPU_DEFAULT_ARENA ((2u << 20) + (64u << 10))

/* Boot the engine and start the workers. */
int pv_cpu_open(const pv_cpu_params *p, pv_cpu **out);
/* From pixelvault.conf: master key file, worker count. */
int pv_cpu_open_conf(const pv_conf *conf, pv_cpu **out);
/* Stop the workers (requests in flight must have been waited for), wipe
 * and free everything.  In a forked child it only releases memory. */
void pv_cpu_close(pv_cpu *c);

/* Inline mode: run the request the caller just published as ticket t
 * (in slot, ve_ring.h) in the calling thread, with a free engine state of
 * the pool (the slot's own first), and complete it (slot.dev.res,
 * done_seq). */
void pv_cpu_execute(pv_cpu *c, void *slot, uint32_t t);

/* The ring and its geometry (see ve_ring.h). */
void *pv_cpu_ring(pv_cpu *c, uint32_t *nslots, uint32_t *slot_arena);
int pv_cpu_sealed(const pv_cpu *c);
uint32_t pv_cpu_workers(const pv_cpu *c);
/* Why the vault is sealed (PV_ERR_NOT_FOUND / _CORRUPT / ..., 0 if not). */
int pv_cpu_seal_reason(const pv_cpu *c);
/* Fingerprint of the master key booted with (gpu/host/pv_master.h,
 * computed before the key is wiped); "" when sealed. */
const char *pv_cpu_master_fpr(const pv_cpu *c);

#endif
