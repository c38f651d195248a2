/*
 * pv_cpu.c - CPU backend: ring memory, worker threads, vault boot.
 *
 * Engine code runs only on the engine states' own stacks (pv_secstack:
 * locked, left out of core dumps, wiped when freed), never on the stack
 * of the thread that runs it: a worker thread, or in caller mode the
 * application's.  Each engine state (ve_worker) has one; whoever holds
 * the state holds its stack (workers[i] and stacks[i] go together).  The
 * boot, which derives the KEK from the master key, runs on stack 0.
 */
#include "pv_cpu.h"
#include "gpu/engine/ve_engine.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_os_random.h"
#include "gpu/host/pv_pid.h"
#include "gpu/host/pv_secmem.h"
#include "gpu/host/pv_secstack.h"
#include "gpu/host/pv_slots.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#define PV_CPU_MAX_WORKERS 256u
#define PV_CPU_RESEED_EVERY (1u << 20)   /* requests between OS reseeds */

typedef struct cpu_thread {
	pv_cpu *c;
	uint32_t index;
	pthread_t tid;
	int started;
} cpu_thread;

/* The words that requests write (claim, free_gen, sleepers) lie apart
 * from each other and from the fields every request reads (PV_APART). */
struct pv_cpu {
	uint8_t *ring;
	size_t ring_bytes;
	uint32_t nslots, slot_arena;
	uint32_t nworkers;
	ve_vault *vault;           /* pv_secmem */
	ve_worker *workers;        /* pv_secmem, nworkers entries */
	pv_secstack **stacks;      /* nworkers entries: the stack of workers[i]
	                              (inline mode: made on first use) */
	pv_slot_st *busy;          /* inline mode: nworkers entries, busy
	                              while a caller uses workers[i] (pv_slots.h) */
	int inline_exec;
	cpu_thread *threads;
	int seal_reason;
	pid_t pid;
	char master_fpr[PV_MASTER_FPR_LEN];  /* "" when sealed */
	PV_APART(apart0_);
	_Atomic uint32_t claim;    /* worker-side ticket counter (never host-written) */
	PV_APART(apart1_);
	uint32_t free_gen;         /* inline mode: +1 per release seen by a sleeper (futex word) */
	_Atomic uint32_t sleepers; /* inline mode: callers asleep on free_gen        */
	PV_APART(apart2_);
};

/* One engine call, carried onto the state's stack (pv_secstack_call). */
typedef struct cpu_job {
	pv_cpu *c;
	ve_worker *w;
	ve_slot *s;                /* NULL: ve_idle */
	uint32_t tk;
} cpu_job;

/* On the state's stack: run the published request of ticket tk in slot s
 * with engine state w, complete it, and reseed w from the OS now and then;
 * or, without a slot, compute ahead (ve_idle). */
static void cpu_job_run(void *arg)
{
	cpu_job *j = (cpu_job *)arg;
	ve_slot *s = j->s;
	ve_result res;

	if (s == NULL) {
		(void)ve_idle(j->c->vault, j->w);
		return;
	}
	ve_execute(j->c->vault, j->w, &s->desc, ve_slot_arena(s), j->c->slot_arena, &res);
	s->dev.res = res;
	pv_store_rel(&s->dev.done_seq, j->tk + 1u);
	pv_futex_wake_counted(&s->dev.done_seq, PV_FUTEX_PRIVATE, &s->host.sleepers);
	if (j->w->nreq % PV_CPU_RESEED_EVERY == 0) {
		uint8_t e[48];
		if (pv_os_random(e, sizeof e) == PV_OK)
			(void)ve_worker_reseed(j->w, e, sizeof e);
		kc_wipe(e, sizeof e);
	}
}

/* Run ticket tk of slot s (NULL: idle work) with engine state i on its
 * stack, made here on the state's first use.  Without one (no memory)
 * the request fails rather than run on this thread's stack. */
static void cpu_run(pv_cpu *c, uint32_t i, ve_slot *s, uint32_t tk)
{
	cpu_job j;

	if (c->stacks[i] == NULL && (c->stacks[i] = pv_secstack_new(0)) == NULL) {
		if (s != NULL) {
			ve_result res;
			memset(&res, 0, sizeof res);
			res.status = PV_ERR_NOMEM;
			s->dev.res = res;
			pv_store_rel(&s->dev.done_seq, tk + 1u);
			pv_futex_wake_counted(&s->dev.done_seq, PV_FUTEX_PRIVATE, &s->host.sleepers);
		}
		return;
	}
	j.c = c;
	j.w = &c->workers[i];
	j.s = s;
	j.tk = tk;
	pv_secstack_call(c->stacks[i], cpu_job_run, &j);
}

static void *cpu_worker(void *arg)
{
	cpu_thread *t = (cpu_thread *)arg;
	pv_cpu *c = t->c;
	ve_worker *w = &c->workers[t->index];
	ve_ring_hdr *h = (ve_ring_hdr *)c->ring;
	char name[16];

	(void)snprintf(name, sizeof name, "pv-cpu%u", t->index & 0xffffu);   /* as top -H shows it */
	(void)prctl(PR_SET_NAME, name, 0, 0, 0);
	for (;;) {
		uint32_t tk = atomic_fetch_add_explicit(&c->claim, 1u, memory_order_relaxed);
		ve_tix *e = ve_ring_tix(c->ring, c->nslots, tk);
		uint32_t si;

		/* nothing waiting for this worker yet: compute ahead (ve_idle) */
		if (pv_load_acq(&e->ready_seq) != tk + 1u && ve_idle_wanted(c->vault, w))
			cpu_run(c, t->index, NULL, 0);
		if (pv_wait_eq(&e->ready_seq, tk + 1u, &h->stop, 100, PV_FUTEX_PRIVATE) != 0)
			break;
		si = e->slot;          /* ordered after the acquire of ready_seq */
		pv_store_rel(ve_ring_taken(c->ring, c->nslots, tk), tk + 1u);
		cpu_run(c, t->index, ve_ring_slot(c->ring, c->nslots, c->slot_arena, si), tk);
	}
	return NULL;
}

/* Inline mode: run the request of ticket t in slot (its producer's
 * thread).  The search for an engine state starts at the slot's own (the
 * slot holds one request at a time, and nworkers = nslots unless workers
 * was set): a thread that keeps its slots (pv_slots.h) keeps its states,
 * and callers on other slots touch none of its lines.  If every state is
 * in use, the caller sleeps until one is given back (pv_slot_sleep_take). */
void pv_cpu_execute(pv_cpu *c, void *slot, uint32_t t)
{
	const uint32_t start = ve_ring_tix(c->ring, c->nslots, t)->slot % c->nworkers;
	uint32_t i;

	pv_store_rel(ve_ring_taken(c->ring, c->nslots, t), t + 1u);   /* no worker claims t */
	while ((i = pv_slot_take_at(c->busy, c->nworkers, start)) == UINT32_MAX)
		if ((i = pv_slot_sleep_take(c->busy, c->nworkers, start, &c->sleepers,
		                            &c->free_gen, 10)) != UINT32_MAX)
			break;
	cpu_run(c, i, (ve_slot *)slot, t);
	pv_slot_give_wake(c->busy, i, &c->sleepers, &c->free_gen);
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;
	while (p < n && p < (1u << 16))
		p <<= 1;
	return p;
}

/* The boot, on stack 0: the entropy, the KEK's derivation and the
 * workers' DRBG seeds stay off the caller's stack. */
typedef struct cpu_boot_job {
	pv_cpu *c;
	const pv_cpu_params *p;
	int rc;
} cpu_boot_job;

static void cpu_boot(void *arg)
{
	cpu_boot_job *b = (cpu_boot_job *)arg;
	pv_cpu *c = b->c;
	const pv_cpu_params *p = b->p;
	uint8_t e[64];
	uint32_t i;
	int rc;

	if ((rc = pv_os_random(e, sizeof e)) != PV_OK)
		goto out;
	rc = ve_boot(c->vault, p->master, p->master_len, e, sizeof e);
	if (rc != PV_OK)
		goto out;
	if (c->vault->sealed && c->seal_reason == 0)
		c->seal_reason = PV_ERR_NOT_FOUND;
	if (!c->vault->sealed && p->master != NULL && p->master_len == PV_MASTER_KEY_LEN)
		pv_master_fingerprint(p->master, c->master_fpr);
	for (i = 0; i < c->nworkers; i++) {
		if ((rc = pv_os_random(e, sizeof e)) != PV_OK)
			goto out;
		if ((rc = ve_worker_init(&c->workers[i], i, e, sizeof e)) != PV_OK)
			goto out;
	}
out:
	kc_wipe(e, sizeof e);
	b->rc = rc;
}

int pv_cpu_open(const pv_cpu_params *p, pv_cpu **out)
{
	pv_cpu *c;
	cpu_boot_job boot;
	sigset_t all, old;
	uint32_t i;
	int rc;

	*out = NULL;
	c = (pv_cpu *)calloc(1, sizeof *c);
	if (c == NULL)
		return PV_ERR_NOMEM;
	c->pid = pv_pid();
	c->nslots = pow2_at_least(p->nslots ? p->nslots : PV_CPU_DEFAULT_SLOTS);
	c->slot_arena = (p->slot_arena ? p->slot_arena : PV_CPU_DEFAULT_ARENA + 63u) & ~63u;
	if (c->slot_arena < 4096u)
		c->slot_arena = 4096u;
	c->nworkers = p->workers;
	if (c->nworkers == 0 && p->inline_exec) {
		c->nworkers = c->nslots;       /* states are not threads (pv_cpu.h) */
	} else if (c->nworkers == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		c->nworkers = n > 0 ? (uint32_t)n : 1u;
	}
	if (c->nworkers > PV_CPU_MAX_WORKERS)
		c->nworkers = PV_CPU_MAX_WORKERS;

	c->ring_bytes = (size_t)ve_ring_bytes(c->nslots, c->slot_arena);
	c->ring = (uint8_t *)mmap(NULL, c->ring_bytes, PROT_READ | PROT_WRITE,
	                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->ring == MAP_FAILED) {
		c->ring = NULL;
		rc = PV_ERR_NOMEM;
		goto fail;
	}
#ifdef MADV_DONTDUMP
	(void)madvise(c->ring, c->ring_bytes, MADV_DONTDUMP);
#endif
	ve_ring_init(c->ring, c->nslots, c->slot_arena);

	c->vault = (ve_vault *)pv_secmem_alloc(sizeof *c->vault);
	c->workers = (ve_worker *)pv_secmem_alloc(sizeof *c->workers * c->nworkers);
	c->threads = (cpu_thread *)calloc(c->nworkers, sizeof *c->threads);
	c->stacks = (pv_secstack **)calloc(c->nworkers, sizeof *c->stacks);
	c->busy = pv_slots_new(c->nworkers);
	c->inline_exec = p->inline_exec;
	if (c->vault == NULL || c->workers == NULL || c->threads == NULL || c->stacks == NULL ||
	    c->busy == NULL) {
		rc = PV_ERR_NOMEM;
		goto fail;
	}
	/* worker threads get their states' stacks now (a thread cannot fail a
	 * request for want of one); in caller mode a state's comes with its
	 * first use, and only the states used cost memory */
	for (i = 0; i < (c->inline_exec ? 1u : c->nworkers); i++)
		if ((c->stacks[i] = pv_secstack_new(0)) == NULL) {
			rc = PV_ERR_NOMEM;
			goto fail;
		}
	boot.c = c;
	boot.p = p;
	boot.rc = PV_ERR_GENERAL;
	pv_secstack_call(c->stacks[0], cpu_boot, &boot);
	if ((rc = boot.rc) != PV_OK)
		goto fail;
	if (c->inline_exec) {          /* no threads: see pv_cpu_execute */
		*out = c;
		return PV_OK;
	}

	/* workers take no signals: the application's threads handle them */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < c->nworkers; i++) {
		c->threads[i].c = c;
		c->threads[i].index = i;
		if (pthread_create(&c->threads[i].tid, NULL, cpu_worker, &c->threads[i]) != 0) {
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			rc = PV_ERR_GENERAL;
			goto fail;
		}
		c->threads[i].started = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	*out = c;
	return PV_OK;
fail:
	pv_cpu_close(c);
	return rc;
}

int pv_cpu_open_conf(const pv_conf *conf, pv_cpu **out)
{
	pv_cpu_params p;
	uint8_t *mk;
	int mrc, rc;

	memset(&p, 0, sizeof p);
	p.workers = conf->workers;
	p.inline_exec = pv_conf_cpu_inline(conf);
	mk = (uint8_t *)pv_secmem_alloc(PV_MASTER_KEY_LEN);
	if (mk == NULL)
		return PV_ERR_NOMEM;
	mrc = pv_master_load(conf->master_key, mk);
	if (mrc == PV_OK) {
		p.master = mk;
		p.master_len = PV_MASTER_KEY_LEN;
	}
	rc = pv_cpu_open(&p, out);
	pv_secmem_free(mk);          /* the master key is wiped right after boot */
	if (rc == PV_OK && mrc != PV_OK)
		(*out)->seal_reason = mrc;
	return rc;
}

void pv_cpu_close(pv_cpu *c)
{
	uint32_t i;

	if (c == NULL)
		return;
	if (c->ring != NULL && c->threads != NULL && c->pid == pv_pid()) {
		ve_ring_hdr *h = (ve_ring_hdr *)c->ring;
		pv_store_rel(&h->stop, 1u);
		for (i = 0; i < VE_RING_TIX(c->nslots); i++)
			pv_futex_wake(&ve_ring_tix(c->ring, c->nslots, i)->ready_seq, PV_FUTEX_PRIVATE);
		for (i = 0; i < c->nworkers; i++)
			if (c->threads[i].started)
				pthread_join(c->threads[i].tid, NULL);
	}
	if (c->workers != NULL) {
		for (i = 0; i < c->nworkers; i++)
			ve_worker_clear(&c->workers[i]);
		pv_secmem_free(c->workers);
	}
	if (c->stacks != NULL) {
		size_t deepest = 0, u;
		for (i = 0; i < c->nworkers; i++) {
			if (c->stacks[i] == NULL)
				continue;
			if ((u = pv_secstack_used(c->stacks[i])) > deepest)
				deepest = u;
			pv_secstack_free(c->stacks[i]);
		}
		pv_log(PV_LOG_DEBUG, "cpu: the engine used %zu bytes of its %u-byte stacks at most",
		       deepest, PV_SECSTACK_SIZE);
		free(c->stacks);
	}
	if (c->vault != NULL) {
		ve_vault_clear(c->vault);
		pv_secmem_free(c->vault);
	}
	if (c->ring != NULL) {
		kc_wipe(c->ring, VE_RING_HDR);
		munmap(c->ring, c->ring_bytes);
	}
	free(c->threads);
	free((void *)c->busy);
	free(c);
}

void *pv_cpu_ring(pv_cpu *c, uint32_t *nslots, uint32_t *slot_arena)
{
	*nslots = c->nslots;
	*slot_arena = c->slot_arena;
	return c->ring;
}

int pv_cpu_sealed(const pv_cpu *c) { return (int)c->vault->sealed; }
uint32_t pv_cpu_workers(const pv_cpu *c) { return c->nworkers; }
int pv_cpu_seal_reason(const pv_cpu *c) { return c->vault->sealed ? c->seal_reason : 0; }

const char *pv_cpu_master_fpr(const pv_cpu *c) { return c->master_fpr; }
