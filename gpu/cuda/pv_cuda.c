/*
 * pv_cuda.c - host side of the CUDA vault: probe, boot, watchdog, seal,
 * close, and a minimal ring producer for tests and tools.
 *
 * Ring words: the host writes only what ve_ring.h gives producers (with
 * release stores) and reads the GPU's words with acquire loads; it never
 * read-modify-writes a word the GPU writes.  The one exception is by
 * design: once the GPU is dead (sticky error, kernel gone), the watchdog
 * becomes the ring's only worker and writes slot.dev itself.
 *
 * While the kernel runs nothing here synchronizes the device: no
 * cudaDeviceSynchronize, no legacy default stream, no cudaFree/cudaFreeHost
 * (both imply a device-wide sync).  The kernel has its own non-blocking
 * stream and an event recorded behind it; health checks query the event.
 */
#include "gpu/cuda/pv_cuda.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/cuda/pvc_check.h"
#include "gpu/cuda/pvc_kernel.h"
#include "gpu/cuda/pvc_ring.h"
#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_slots.h"

#define PVC_MAX_SLOTS 65536u
#define PVC_MAX_ARENA_BYTES ((size_t)8 << 30)
#define PVC_WAKERS 4u              /* watchdog + wakers, at most */
#define PVC_STAGE_STREAMS 8u       /* streams for pv_cuda_stage's copies */

struct pv_cuda {
	int dev;
	cudaStream_t stream;       /* the kernel's own, non-blocking         */
	cudaStream_t side;         /* copies while the kernel runs           */
	cudaEvent_t done;          /* recorded behind the kernel             */
	int launched, stopped;

	uint8_t *ring;             /* pinned + mapped, ve_ring layout        */
	size_t ring_bytes;
	pvc_gpu_status *gst;       /* pinned + mapped, GPU-written           */
	uint64_t *prof_rows;       /* pinned + mapped, with params.profile:
	                              PVC_PROF_ROW words per slot            */
	size_t prof_bytes;
	uint8_t *hstaging;         /* pinned, PVC_ST_LEN, one-shot           */
	uint8_t *darena;           /* device                                 */
	ve_desc *ddesc;            /* device                                 */
	pvc_devstate *dstate;      /* device                                 */
	uint8_t *dstaging;         /* device, PVC_ST_LEN                     */
	uint8_t *dpairs;           /* device, pair_bytes: worker pairs'
	                              exponentiation buffers                 */
	size_t pair_bytes;
	pvc_kparams kp;
	uint32_t nslots, slot_arena;

	pv_slot_st *slots;         /* per slot: busy while a request holds it */
	uint32_t *arena_used;      /* per slot: bytes the producer filled    */
	cudaStream_t stage_stream[PVC_STAGE_STREAMS]; /* non-blocking; slot % n */
	cudaEvent_t *stage_done;   /* per slot: its pv_cuda_stage copy is done */

	pthread_t wd[PVC_WAKERS];  /* watchdog (0) and wakers                */
	struct pvc_waker { struct pv_cuda *v; uint32_t k, n; } wk[PVC_WAKERS];
	uint32_t wd_running;       /* threads started                        */
	int wd_stop;               /* atomic                                 */
	int wd_dead;               /* atomic: the watchdog saw the GPU gone  */
	uint32_t *seen_done;       /* wakers: done_seq at their last scan    */

	pthread_mutex_t why_mu;
	int sealed;                /* atomic: 1 once sealed by a fault       */
	int no_master;             /* PV_ERR_NOT_FOUND / _KEY_SIZE, or 0     */
	int engine_sealed;
	char why[256];

	char device_name[256];
	int sm_count, blocks_per_sm, host_native_atomics;
	unsigned grid, block;
	/* written by every pv_cuda_submit: apart from the fields each call
	 * reads (pv_slots.h) */
	PV_APART(apart0_);
	uint32_t prod;             /* producer ticket counter (host only)    */
	PV_APART(apart1_);
};

static void pvc_seal(pv_cuda *v, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&v->why_mu);
	if (!__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE)) {
		va_start(ap, fmt);
		vsnprintf(v->why, sizeof v->why, fmt, ap);
		va_end(ap);
		__atomic_store_n(&v->sealed, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&v->why_mu);
}

int pvc_ck(struct pv_cuda *v, char *buf, size_t buflen, cudaError_t e,
           const char *what, const char *file, int line)
{
	if (e == cudaSuccess)
		return PV_OK;
	if (v != NULL)
		pvc_seal(v, "%s:%d: %s: %s (%s)", file, line, what,
		         cudaGetErrorName(e), cudaGetErrorString(e));
	else if (buf != NULL && buflen > 0)
		snprintf(buf, buflen, "%s:%d: %s: %s (%s)", file, line, what,
		         cudaGetErrorName(e), cudaGetErrorString(e));
	return PV_ERR_DEVICE;
}

static void pvc_msg(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	if (buf == NULL || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static uint64_t pvc_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pvc_relax(unsigned *spins)
{
	if (*spins < 512) {
		__builtin_ia32_pause();
	} else if (*spins < 8192) {
		sched_yield();
	} else {
		struct timespec ts = { 0, 20000 };
		nanosleep(&ts, NULL);
	}
	(*spins)++;
}

static uint32_t ld_acq(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void st_rel(uint32_t *p, uint32_t x) { __atomic_store_n(p, x, __ATOMIC_RELEASE); }

int pv_cuda_probe(int device, char *why, size_t whylen)
{
	int n = 0, rc;
	struct cudaDeviceProp prop;

	if (device < 0)
		device = 0;
	rc = PVC_CKB(why, whylen, cudaGetDeviceCount(&n));
	if (rc != PV_OK)
		return rc;
	if (device >= n) {
		pvc_msg(why, whylen, "no CUDA device %d (%d present)", device, n);
		return PV_ERR_DEVICE;
	}
	rc = PVC_CKB(why, whylen, cudaGetDeviceProperties(&prop, device));
	if (rc != PV_OK)
		return rc;
	if (prop.major < 7) {
		pvc_msg(why, whylen, "%s: compute capability %d.%d < 7.0", prop.name, prop.major, prop.minor);
		return PV_ERR_DEVICE;
	}
	if (!prop.canMapHostMemory) {
		pvc_msg(why, whylen, "%s: cannot map host memory", prop.name);
		return PV_ERR_DEVICE;
	}
	pvc_msg(why, whylen, "%s (sm_%d%d, %d SMs)", prop.name, prop.major, prop.minor,
	        prop.multiProcessorCount);
	return PV_OK;
}

/* 32 raw bytes, or a reason to run sealed. */
static int pvc_read_key(const char *path, uint8_t key[32])
{
	struct stat st;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return PV_ERR_NOT_FOUND;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 32) {
		close(fd);
		return PV_ERR_KEY_SIZE;
	}
	got = read(fd, key, 32);
	close(fd);
	if (got != 32) {
		kc_wipe(key, 32);
		return PV_ERR_IO;
	}
	return PV_OK;
}

/* Health of the running kernel: PV_OK while it runs; seals otherwise. */
static int pvc_health(pv_cuda *v)
{
	cudaError_t e;
	if (__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE))
		return PV_ERR_SEALED;
	if (ld_acq(&v->gst->fatal)) {
		pvc_seal(v, "vault kernel reported fatal condition %u", v->gst->fatal);
		return PV_ERR_SEALED;
	}
	e = cudaEventQuery(v->done);
	if (e == cudaErrorNotReady)
		return PV_OK;
	if (e == cudaSuccess) {
		pvc_seal(v, "vault kernel stopped while the vault was open");
		return PV_ERR_SEALED;
	}
	(void)PVC_CK(v, e);
	return PV_ERR_SEALED;
}

/* Watchdog and wakers: thread k of n owns the slots s = k (mod n): it
 * futex-wakes the ones that completed and, once the GPU is gone, completes
 * their requests on its behalf (the ring's worker of last resort); thread
 * 0, the watchdog, also checks the kernel's health every ms.  Each looks
 * at the GPU's last_done word every 20 us while completions come (for
 * 5 ms after the latest), every ms otherwise, and when the word moved or
 * a ms passed scans its part of done[] (the slots' done_seq packed in a
 * few cache lines; the slots themselves lie a page apart).  Several
 * threads: one issues at most a few hundred thousand wakes/s, and a waiter
 * that does not poll sleeps until its wake. */
#define PVC_WD_TICK_NS  1000000u
#define PVC_WD_FAST_NS  20000u
#define PVC_WD_BUSY_NS  5000000u
static void *pvc_watchdog(void *arg)
{
	const struct pvc_waker *w = (const struct pvc_waker *)arg;
	pv_cuda *v = w->v;
	const uint32_t *done = PVC_GST_DONE(v->gst);
	uint64_t tick = 0, moved = 0;
	uint32_t last = 0;
	int dead = 0;

	(void)prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);   /* 20 us sleeps, not 70 */
	{
		char name[16] = "pv-watchdog";        /* as top -H / ps -L show it */
		if (w->k > 0)
			(void)snprintf(name, sizeof name, "pv-waker%u", w->k & 0xffu);
		(void)prctl(PR_SET_NAME, name, 0, 0, 0);
	}
	while (!__atomic_load_n(&v->wd_stop, __ATOMIC_ACQUIRE)) {
		uint64_t now = pvc_now_ns();
		uint32_t ld = ld_acq(&v->gst->last_done);
		int due = now - tick >= PVC_WD_TICK_NS;
		struct timespec ts = { 0, 0 };

		if (ld != last) {
			last = ld;
			moved = now;
		} else if (!due) {
			ts.tv_nsec = now - moved < PVC_WD_BUSY_NS ? PVC_WD_FAST_NS
			                                          : PVC_WD_TICK_NS - (now - tick);
			nanosleep(&ts, NULL);
			continue;
		}
		if (due) {
			tick = now;
			/* a sealed vault drains and stops its kernel; a dead one
			 * (fault, or stopped) hands the ring to these threads */
			if (w->k == 0 && !dead && pvc_health(v) != PV_OK)
				st_rel(&((ve_ring_hdr *)v->ring)->stop, 1u);
			if (w->k == 0 && !dead && cudaEventQuery(v->done) != cudaErrorNotReady)
				__atomic_store_n(&v->wd_dead, 1, __ATOMIC_RELEASE);
			if (!dead && __atomic_load_n(&v->wd_dead, __ATOMIC_ACQUIRE))
				dead = 1;
		}
		for (uint32_t s = w->k; s < v->nslots; s += w->n) {
			ve_slot *sl = ve_ring_slot(v->ring, v->nslots, v->slot_arena, s);
			uint32_t d = ld_acq(&done[s]), r;
			if (d != v->seen_done[s] || dead)
				d = ld_acq(&sl->dev.done_seq);   /* the word producers wait on */
			if (dead) {
				r = ld_acq(&sl->host.ready_seq);
				if (r != 0 && r != d) {
					/* the GPU is gone: complete on its behalf */
					sl->dev.res.status = dead == 1 ? PV_ERR_DEVICE : PV_ERR_SEALED;
					sl->dev.res.out_len = sl->dev.res.out2_len = sl->dev.res.state_len = 0;
					st_rel(&sl->dev.done_seq, r);
					d = r;
				}
			}
			if (d != v->seen_done[s]) {
				v->seen_done[s] = d;
				/* in-process ring; nobody sleeps there while callers
				 * poll (async sessions): no system call then */
				pv_futex_wake_counted(&sl->dev.done_seq, PV_FUTEX_PRIVATE, &sl->host.sleepers);
			}
		}
		if (dead == 1)
			dead = 2;       /* later requests: PV_ERR_SEALED */
	}
	return NULL;
}

static int pvc_check_geom(const pv_cuda_params *p, uint32_t *ns, uint32_t *sa, char *err, size_t errlen)
{
	*ns = p->nslots ? p->nslots : PV_CUDA_DEFAULT_SLOTS;
	*sa = p->slot_arena ? p->slot_arena : PV_CUDA_DEFAULT_ARENA;
	if ((*ns & (*ns - 1u)) != 0 || *ns > PVC_MAX_SLOTS || *sa % 64u != 0 || *sa < 64 ||
	    (size_t)*ns * *sa > PVC_MAX_ARENA_BYTES) {
		pvc_msg(err, errlen, "bad ring geometry: %u slots of %u bytes", *ns, *sa);
		return PV_ERR_ARGS;
	}
	return PV_OK;
}

/* Wipe and free everything that exists; the kernel must be gone. */
static void pvc_release(pv_cuda *v)
{
	size_t arena = (size_t)v->nslots * v->slot_arena;
	if (v->darena != NULL)
		(void)PVC_CK(v, cudaMemsetAsync(v->darena, 0, arena, v->stream));
	if (v->ddesc != NULL)
		(void)PVC_CK(v, cudaMemsetAsync(v->ddesc, 0, (size_t)v->nslots * sizeof(ve_desc), v->stream));
	if (v->dstaging != NULL)
		(void)PVC_CK(v, cudaMemsetAsync(v->dstaging, 0, PVC_ST_LEN, v->stream));
	if (v->dpairs != NULL)
		(void)PVC_CK(v, cudaMemsetAsync(v->dpairs, 0, v->pair_bytes, v->stream));
	if (v->stream != NULL)
		(void)PVC_CK(v, cudaStreamSynchronize(v->stream));
	if (v->ring != NULL)
		explicit_bzero(v->ring, v->ring_bytes);
	if (v->hstaging != NULL)
		kc_wipe(v->hstaging, PVC_ST_LEN);
	if (v->darena != NULL)
		(void)PVC_CK(v, cudaFree(v->darena));
	if (v->ddesc != NULL)
		(void)PVC_CK(v, cudaFree(v->ddesc));
	if (v->dstaging != NULL)
		(void)PVC_CK(v, cudaFree(v->dstaging));
	if (v->dstate != NULL)
		(void)PVC_CK(v, cudaFree(v->dstate));
	if (v->dpairs != NULL)
		(void)PVC_CK(v, cudaFree(v->dpairs));
	if (v->ring != NULL)
		(void)PVC_CK(v, cudaFreeHost(v->ring));
	if (v->gst != NULL)
		(void)PVC_CK(v, cudaFreeHost(v->gst));
	if (v->hstaging != NULL)
		(void)PVC_CK(v, cudaFreeHost(v->hstaging));
	if (v->prof_rows != NULL)
		(void)PVC_CK(v, cudaFreeHost(v->prof_rows));
	if (v->done != NULL)
		(void)PVC_CK(v, cudaEventDestroy(v->done));
	if (v->stream != NULL)
		(void)PVC_CK(v, cudaStreamDestroy(v->stream));
	if (v->side != NULL)
		(void)PVC_CK(v, cudaStreamDestroy(v->side));
	for (uint32_t i = 0; i < PVC_STAGE_STREAMS; i++)
		if (v->stage_stream[i] != NULL)
			(void)PVC_CK(v, cudaStreamDestroy(v->stage_stream[i]));
	for (uint32_t i = 0; v->stage_done != NULL && i < v->nslots; i++)
		if (v->stage_done[i] != NULL)
			(void)PVC_CK(v, cudaEventDestroy(v->stage_done[i]));
}

/* Devices (ordinal < 32) that serve a vault of this process: the vault
 * kernel takes every SM but one, so a second one on the same device could
 * never become resident; it is refused at once instead of timing out. */
static uint32_t pvc_held;

static int pvc_hold(int dev)
{
	uint32_t bit = dev < 32 ? 1u << dev : 0u;
	return (__atomic_fetch_or(&pvc_held, bit, __ATOMIC_ACQ_REL) & bit) == 0u;
}

static void pvc_unhold(int dev)
{
	if (dev < 32)
		__atomic_fetch_and(&pvc_held, ~(1u << dev), __ATOMIC_ACQ_REL);
}

static void pvc_free_host(pv_cuda *v)
{
	pvc_unhold(v->dev);
	free(v->arena_used);
	free(v->seen_done);
	free(v->slots);
	free(v->stage_done);
	pthread_mutex_destroy(&v->why_mu);
	free(v);
}

int pv_cuda_open(const pv_cuda_params *p, pv_cuda **out, char *err, size_t errlen)
{
	uint8_t st[PVC_ST_LEN];
	uint32_t ns, sa;
	struct cudaDeviceProp prop;
	pv_cuda *v;
	void *dptr;
	int rc, bps = 0;
	uint64_t deadline;
	unsigned spins = 0;

	if (p == NULL || out == NULL)
		return PV_ERR_ARGS;
	*out = NULL;
	if ((rc = pvc_check_geom(p, &ns, &sa, err, errlen)) != PV_OK)
		return rc;
	if ((rc = pv_cuda_probe(p->device, err, errlen)) != PV_OK)
		return rc;

	if (!pvc_hold(p->device < 0 ? 0 : p->device)) {
		pvc_msg(err, errlen, "CUDA device %d already serves a vault of this process",
		        p->device < 0 ? 0 : p->device);
		return PV_ERR_BUSY;
	}
	v = (pv_cuda *)calloc(1, sizeof *v);
	if (v == NULL) {
		pvc_unhold(p->device < 0 ? 0 : p->device);
		return PV_ERR_NOMEM;
	}
	pthread_mutex_init(&v->why_mu, NULL);
	v->dev = p->device < 0 ? 0 : p->device;
	v->nslots = ns;
	v->slot_arena = sa;
	v->arena_used = (uint32_t *)calloc(ns, sizeof(uint32_t));
	v->seen_done = (uint32_t *)calloc(ns, sizeof(uint32_t));
	v->slots = pv_slots_new(ns);
	v->stage_done = (cudaEvent_t *)calloc(ns, sizeof(cudaEvent_t));
	if (v->arena_used == NULL || v->seen_done == NULL || v->slots == NULL || v->stage_done == NULL) {
		pvc_free_host(v);
		return PV_ERR_NOMEM;
	}

	/* boot secrets: master key (or none: sealed) + entropy */
	memset(st, 0, sizeof st);
	if (p->master != NULL) {
		if (p->master_len == 32) {
			memcpy(st + PVC_ST_MASTER, p->master, 32);
			st[PVC_ST_HAS_MASTER] = 1;
		} else {
			v->no_master = PV_ERR_KEY_SIZE;
		}
	} else if (p->master_key_path != NULL) {
		rc = pvc_read_key(p->master_key_path, st + PVC_ST_MASTER);
		if (rc == PV_OK)
			st[PVC_ST_HAS_MASTER] = 1;
		else
			v->no_master = rc;
	} else {
		v->no_master = PV_ERR_NOT_FOUND;
	}
	if (getrandom(st + PVC_ST_BOOT_ENT, 96, 0) != 96) {
		kc_wipe(st, sizeof st);
		pvc_free_host(v);
		pvc_msg(err, errlen, "getrandom failed");
		return PV_ERR_RANDOM;
	}

#define CK(call) do { if ((rc = PVC_CK(v, call)) != PV_OK) goto fail; } while (0)
	CK(cudaSetDevice(v->dev));
	CK(cudaGetDeviceProperties(&prop, v->dev));
	snprintf(v->device_name, sizeof v->device_name, "%s", prop.name);
	v->sm_count = prop.multiProcessorCount;
	CK(cudaDeviceGetAttribute(&v->host_native_atomics, cudaDevAttrHostNativeAtomicSupported, v->dev));
	CK(cudaStreamCreateWithFlags(&v->stream, cudaStreamNonBlocking));
	CK(cudaStreamCreateWithFlags(&v->side, cudaStreamNonBlocking));
	CK(cudaEventCreateWithFlags(&v->done, cudaEventDisableTiming));
	/* pv_cuda_stage: its callers sleep until their copy is done */
	for (uint32_t i = 0; i < PVC_STAGE_STREAMS; i++)
		CK(cudaStreamCreateWithFlags(&v->stage_stream[i], cudaStreamNonBlocking));
	for (uint32_t i = 0; i < ns; i++)
		CK(cudaEventCreateWithFlags(&v->stage_done[i], cudaEventDisableTiming | cudaEventBlockingSync));

	/* the ring: pinned, mapped, zeroed, initialised as ve_ring.h says */
	v->ring_bytes = (size_t)ve_ring_bytes(ns, sa);
	CK(cudaHostAlloc((void **)&v->ring, v->ring_bytes, cudaHostAllocMapped | cudaHostAllocPortable));
	memset(v->ring, 0, v->ring_bytes);
	ve_ring_init(v->ring, ns, sa);
	CK(cudaHostAlloc((void **)&v->gst, PVC_GST_BYTES(ns), cudaHostAllocMapped | cudaHostAllocPortable));
	memset(v->gst, 0, PVC_GST_BYTES(ns));
	CK(cudaHostAlloc((void **)&v->hstaging, PVC_ST_LEN, cudaHostAllocDefault));
	if (p->profile) {
		v->prof_bytes = (size_t)ns * PVC_PROF_ROW * sizeof(uint64_t);
		CK(cudaHostAlloc((void **)&v->prof_rows, v->prof_bytes, cudaHostAllocMapped | cudaHostAllocPortable));
		memset(v->prof_rows, 0, v->prof_bytes);
	}

	CK(cudaMalloc((void **)&v->darena, (size_t)ns * sa));
	CK(cudaMalloc((void **)&v->ddesc, (size_t)ns * sizeof(ve_desc)));
	CK(cudaMalloc((void **)&v->dstate, sizeof(pvc_devstate) + (size_t)VE_RING_TIX(ns) * sizeof(uint64_t)));
	CK(cudaMalloc((void **)&v->dstaging, PVC_ST_LEN));
	CK(cudaMemsetAsync(v->darena, 0, (size_t)ns * sa, v->stream));
	CK(cudaMemsetAsync(v->ddesc, 0, (size_t)ns * sizeof(ve_desc), v->stream));
	CK(cudaMemsetAsync(v->dstate, 0, sizeof(pvc_devstate) + (size_t)VE_RING_TIX(ns) * sizeof(uint64_t), v->stream));

	/* boot secrets: stack -> pinned staging -> device staging; the stack
	 * and pinned copies are wiped as soon as the copy is done */
	memcpy(v->hstaging, st, PVC_ST_LEN);
	kc_wipe(st, sizeof st);
	rc = PVC_CK(v, cudaMemcpyAsync(v->dstaging, v->hstaging, PVC_ST_LEN, cudaMemcpyHostToDevice, v->stream));
	if (rc == PV_OK)
		rc = PVC_CK(v, cudaStreamSynchronize(v->stream));
	kc_wipe(v->hstaging, PVC_ST_LEN);
	if (rc != PV_OK)
		goto fail;

	CK(cudaHostGetDevicePointer(&dptr, v->ring, 0));
	v->kp.ring = (uint8_t *)dptr;
	CK(cudaHostGetDevicePointer(&dptr, v->gst, 0));
	v->kp.gst = (pvc_gpu_status *)dptr;
	v->kp.cdone = PVC_GST_DONE(v->kp.gst);
	if (v->prof_rows != NULL) {
		CK(cudaHostGetDevicePointer(&dptr, v->prof_rows, 0));
		v->kp.prof_rows = (uint64_t *)dptr;
	}
	v->kp.darena = v->darena;
	v->kp.ddesc = v->ddesc;
	v->kp.dev = v->dstate;
	v->kp.dready = (uint64_t *)(v->dstate + 1);
	v->kp.staging = v->dstaging;
	v->kp.nslots = ns;
	v->kp.slot_arena = sa;

	/* grid: every block resident (the kernel never returns) */
	CK(pvc_kernel_prepare(&bps));
	if (bps <= 0) {
		pvc_seal(v, "vault kernel does not fit on a multiprocessor");
		rc = PV_ERR_DEVICE;
		goto fail;
	}
	if (p->blocks_per_sm > 0 && (int)p->blocks_per_sm < bps)
		bps = (int)p->blocks_per_sm;
	v->blocks_per_sm = bps;
	v->block = pvc_kernel_block();
	/* one multiprocessor's worth of blocks is left free: a persistent
	 * kernel that fills every SM starves any other kernel of the process
	 * (the application's own CUDA work, the fault test's kernel) */
	v->grid = (unsigned)((v->sm_count > 1 ? v->sm_count - 1 : 1) * bps);
	if (v->grid < 2) {
		pvc_seal(v, "vault kernel needs two resident blocks (a poller and a worker)");
		rc = PV_ERR_DEVICE;
		goto fail;
	}
	/* the worker pairs' buffers (a lone RSA signature's exponentiations
	 * on two blocks), zeroed before the kernel reads them */
	v->pair_bytes = p->no_pairs ? 0 : pvc_kernel_pair_bytes(v->grid);
	if (v->pair_bytes != 0) {
		CK(cudaMalloc((void **)&v->dpairs, v->pair_bytes));
		CK(cudaMemsetAsync(v->dpairs, 0, v->pair_bytes, v->stream));
		v->kp.pairs = v->dpairs;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	CK(pvc_kernel_launch(&v->kp, v->grid, v->stream));
	v->launched = 1;
	CK(cudaEventRecord(v->done, v->stream));

	deadline = pvc_now_ns() + (uint64_t)(p->boot_timeout_ms ? p->boot_timeout_ms : 10000) * 1000000u;
	while (!ld_acq(&v->gst->booted)) {
		if ((spins & 63u) == 0 && pvc_health(v) != PV_OK) {
			rc = PV_ERR_DEVICE;
			goto fail;
		}
		if (pvc_now_ns() > deadline) {
			pvc_seal(v, "vault kernel did not boot in time (grid %u: blocks not all resident?)", v->grid);
			rc = PV_ERR_DEVICE;
			goto fail;
		}
		pvc_relax(&spins);
	}
	if (ld_acq(&v->gst->fatal)) {
		pvc_seal(v, "vault kernel rejected the ring header");
		rc = PV_ERR_DEVICE;
		goto fail;
	}
	v->engine_sealed = (int)ld_acq(&v->gst->sealed);
	if (v->gst->boot_rc != 0) {
		pvc_seal(v, "ve_boot on the GPU failed: %d", (int)v->gst->boot_rc);
		rc = PV_ERR_DEVICE;
		goto fail;
	}
	if (v->engine_sealed && v->no_master == 0)
		v->no_master = PV_ERR_NOT_FOUND;
	{
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		uint32_t n = cpus >= 8 ? (uint32_t)(cpus / 4) : 1u;
		if (n > PVC_WAKERS)
			n = PVC_WAKERS;
		for (uint32_t k = 0; k < n; k++) {
			v->wk[k].v = v;
			v->wk[k].k = k;
			v->wk[k].n = n;
			if (pthread_create(&v->wd[k], NULL, pvc_watchdog, &v->wk[k]) != 0) {
				pvc_seal(v, "cannot start the watchdog threads");
				rc = PV_ERR_NOMEM;
				goto fail;
			}
			v->wd_running = k + 1u;
		}
	}
#undef CK
	*out = v;
	return PV_OK;

fail:
	pvc_msg(err, errlen, "%s", v->why[0] ? v->why : "vault boot failed");
	(void)pv_cuda_close(v);
	return rc;
}

int pv_cuda_close(pv_cuda *v)
{
	int rc = PV_OK;
	uint64_t deadline;
	unsigned spins = 0;
	cudaError_t e = cudaSuccess;

	if (v == NULL)
		return PV_OK;
	if (v->wd_running) {
		__atomic_store_n(&v->wd_stop, 1, __ATOMIC_RELEASE);
		for (uint32_t k = 0; k < v->wd_running; k++)
			pthread_join(v->wd[k], NULL);
		v->wd_running = 0;
	}
	if (v->launched && !v->stopped) {
		st_rel(&((ve_ring_hdr *)v->ring)->stop, 1u);
		if (!ld_acq(&v->gst->booted)) {
			/* the poller (the grid's last block) may never have become
			 * resident to mirror stop: tell the workers directly, through
			 * the copy engine, which runs beside the kernel */
			static const uint32_t one = 1u;
			if (PVC_CK(v, cudaMemcpyAsync(&v->dstate->stop, &one, sizeof one,
			                              cudaMemcpyHostToDevice, v->side)) == PV_OK)
				(void)PVC_CK(v, cudaStreamSynchronize(v->side));
		}
		deadline = pvc_now_ns() + 10ull * 1000000000ull;
		for (;;) {
			e = cudaEventQuery(v->done);
			if (e != cudaErrorNotReady)
				break;
			if (pvc_now_ns() > deadline) {
				pvc_seal(v, "vault kernel did not stop within 10 s");
				break;
			}
			pvc_relax(&spins);
		}
		if (e == cudaSuccess) {
			v->stopped = 1;
			if (!ld_acq(&v->gst->exited))
				pvc_seal(v, "vault kernel ended without its exit record");
		} else if (e != cudaErrorNotReady) {
			(void)PVC_CK(v, e);
		}
	}
	if (__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE))
		rc = PV_ERR_DEVICE;
	if (v->launched && !v->stopped) {
		if (e == cudaErrorNotReady)
			return rc;        /* still running: nothing may be freed */
		/* a sticky error (fault) poisons the context for the rest of the
		 * process (CUDA: "the process must be terminated and relaunched";
		 * a new boot here is refused): wipe the host copies, and reset
		 * so that the driver releases what it can */
		explicit_bzero(v->ring, v->ring_bytes);
		(void)cudaDeviceReset();
		pvc_free_host(v);
		return rc;
	}
	pvc_release(v);
	pvc_free_host(v);
	return rc;
}

void *pv_cuda_ring(pv_cuda *v, uint32_t *nslots, uint32_t *slot_arena)
{
	if (nslots != NULL)
		*nslots = v->nslots;
	if (slot_arena != NULL)
		*slot_arena = v->slot_arena;
	return v->ring;
}

int pv_cuda_sealed(pv_cuda *v)
{
	return __atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE) || v->engine_sealed;
}

int pv_cuda_seal_reason(pv_cuda *v)
{
	if (__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE))
		return PV_ERR_DEVICE;
	return v->engine_sealed ? (v->no_master ? v->no_master : PV_ERR_NOT_FOUND) : 0;
}

void pv_cuda_last_trace(pv_cuda *v, uint64_t ns[4])
{
	for (int i = 0; i < 4; i++)
		ns[i] = ((volatile uint64_t *)v->gst->trace)[i];
}

const uint64_t *pv_cuda_profile_rows(pv_cuda *v, uint32_t *nrows)
{
	*nrows = v->prof_rows != NULL ? v->nslots : 0u;
	return v->prof_rows;
}

void pv_cuda_clear_profile_rows(pv_cuda *v)
{
	if (v->prof_rows != NULL)
		memset(v->prof_rows, 0, v->prof_bytes);
}

int pv_cuda_info_get(pv_cuda *v, pv_cuda_info *info)
{
	size_t st = 0;
	if (v == NULL || info == NULL)
		return PV_ERR_ARGS;
	memset(info, 0, sizeof *info);
	pthread_mutex_lock(&v->why_mu);
	snprintf(info->why, sizeof info->why, "%s", v->why);
	pthread_mutex_unlock(&v->why_mu);
	info->sealed = pv_cuda_sealed(v);
	info->seal_reason = pv_cuda_seal_reason(v);
	snprintf(info->device_name, sizeof info->device_name, "%s", v->device_name);
	info->sm_count = v->sm_count;
	info->blocks_per_sm = v->blocks_per_sm;
	info->grid = v->grid;
	info->block = v->block;
	if (pvc_kernel_attrs(&info->regs, &info->local_bytes, &st) == cudaSuccess)
		info->smem_bytes = st + pvc_kernel_smem();
	info->host_native_atomics = v->host_native_atomics;
	info->nslots = v->nslots;
	info->slot_arena = v->slot_arena;
	return PV_OK;
}

static int pvc_submit(pv_cuda *v, const ve_desc *d, const uint8_t *arena, uint32_t arena_len,
                      uint32_t *handle, int block)
{
	uint32_t t, i;
	unsigned spins = 0;
	ve_tix *e;
	ve_slot *s;

	if (v == NULL || d == NULL || handle == NULL || (arena == NULL && arena_len > 0))
		return PV_ERR_ARGS;
	if (arena_len > v->slot_arena)
		return PV_ERR_DATA_LEN;
	/* a free slot (ve_ring.h step 1) */
	while ((i = pv_slot_take(v->slots, v->nslots)) == UINT32_MAX) {
		if (ld_acq(&v->gst->exited))
			return PV_ERR_SEALED;
		if (!block)
			return PV_ERR_BUSY;
		pvc_relax(&spins);
	}
	s = ve_ring_slot(v->ring, v->nslots, v->slot_arena, i);
	memcpy(&s->desc, d, sizeof *d);
	s->host.staged_len = 0;      /* nothing staged: the kernel copies it all */
	if (arena_len > 0)
		memcpy(ve_slot_arena(s), arena, arena_len);
	v->arena_used[i] = arena_len;
	/* the next ticket (step 2: its entry is free, ve_ring.h), publish */
	for (;;) {
		t = __atomic_load_n(&v->prod, __ATOMIC_RELAXED);
		if (ld_acq(ve_ring_taken(v->ring, v->nslots, t)) == t - VE_RING_TIX(v->nslots) + 1u &&
		    __atomic_compare_exchange_n(&v->prod, &t, t + 1u, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			break;
		pvc_relax(&spins);
	}
	st_rel(&s->host.ready_seq, t + 1u);
	e = ve_ring_tix(v->ring, v->nslots, t);
	e->slot = i;
	st_rel(&e->ready_seq, t + 1u);
	*handle = i;
	return PV_OK;
}

int pv_cuda_submit(pv_cuda *v, const ve_desc *d, const uint8_t *arena, uint32_t arena_len,
                   uint32_t *handle)
{
	return pvc_submit(v, d, arena, arena_len, handle, 1);
}

int pv_cuda_try_submit(pv_cuda *v, const ve_desc *d, const uint8_t *arena, uint32_t arena_len,
                       uint32_t *handle)
{
	return pvc_submit(v, d, arena, arena_len, handle, 0);
}

int pv_cuda_wait(pv_cuda *v, uint32_t h, ve_result *res, uint8_t *arena_out, uint32_t out_len)
{
	unsigned spins = 0;
	ve_slot *s;
	uint32_t used, t;

	if (v == NULL || res == NULL || out_len > v->slot_arena || h >= v->nslots)
		return PV_ERR_ARGS;
	s = ve_ring_slot(v->ring, v->nslots, v->slot_arena, h);
	t = ld_acq(&s->host.ready_seq) - 1u;   /* pvc_submit stored t + 1 */
	while (ld_acq(&s->dev.done_seq) != t + 1u)
		pvc_relax(&spins);   /* the watchdog completes it if the GPU dies */
	memcpy(res, (const void *)&s->dev.res, sizeof *res);
	if (arena_out != NULL && out_len > 0)
		memcpy(arena_out, ve_slot_arena(s), out_len);
	used = v->arena_used[h];
	if (out_len > used)
		used = out_len;
	explicit_bzero(ve_slot_arena(s), used);
	explicit_bzero(&s->desc, sizeof s->desc);
	pv_slot_give(v->slots, h);
	return res->status;
}

int pv_cuda_stage(pv_cuda *v, uint32_t slot, uint32_t bytes)
{
	cudaStream_t st;
	int cur = -1, rc;

	if (v == NULL || slot >= v->nslots || bytes == 0 || bytes > v->slot_arena || bytes % 16u != 0)
		return PV_ERR_ARGS;
	if (__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE))
		return PV_ERR_DEVICE;
	/* the calling thread's current device may be the application's own */
	if (cudaGetDevice(&cur) != cudaSuccess)
		cur = -1;
	if (cur != v->dev && (rc = PVC_CK(v, cudaSetDevice(v->dev))) != PV_OK)
		return rc;
	st = v->stage_stream[slot % PVC_STAGE_STREAMS];
	rc = PVC_CK(v, cudaMemcpyAsync(v->darena + (size_t)slot * v->slot_arena,
	                               ve_slot_arena(ve_ring_slot(v->ring, v->nslots, v->slot_arena, slot)),
	                               bytes, cudaMemcpyHostToDevice, st));
	if (rc == PV_OK)
		rc = PVC_CK(v, cudaEventRecord(v->stage_done[slot], st));
	if (rc == PV_OK)
		rc = PVC_CK(v, cudaEventSynchronize(v->stage_done[slot]));
	if (cur >= 0 && cur != v->dev)
		(void)cudaSetDevice(cur);
	return rc;
}

int pv_cuda_debug_staging_wiped(pv_cuda *v)
{
	uint8_t acc = 0;
	int rc;
	if (v == NULL)
		return PV_ERR_ARGS;
	for (unsigned i = 0; i < PVC_ST_LEN; i++)
		acc |= v->hstaging[i];
	if (acc != 0)
		return PV_ERR_GENERAL;
	/* the copy engine reads the device staging while the kernel runs */
	rc = PVC_CK(v, cudaMemcpyAsync(v->hstaging, v->dstaging, PVC_ST_LEN, cudaMemcpyDeviceToHost, v->side));
	if (rc == PV_OK)
		rc = PVC_CK(v, cudaStreamSynchronize(v->side));
	if (rc != PV_OK)
		return rc;
	for (unsigned i = 0; i < PVC_ST_LEN; i++)
		acc |= v->hstaging[i];
	kc_wipe(v->hstaging, PVC_ST_LEN);
	return acc == 0 ? PV_OK : PV_ERR_GENERAL;
}
