/*
 * pv_cuda.c - host side of the CUDA vault: probe, boot, ring, seal, close.
 *
 * The host writes only what pvc_ring.h assigns to it (ctl.head, ctl.stop,
 * descriptors, slot inputs) with C11-style release stores, and reads the
 * GPU's words (completions, booted/exited/fatal) with acquire loads.  It
 * never read-modify-writes a word the GPU writes.
 *
 * While the kernel runs, nothing here synchronizes the device: no
 * cudaDeviceSynchronize, no legacy default stream, no cudaFree/cudaFreeHost
 * (both imply a device-wide sync).  The kernel has its own non-blocking
 * stream and an event recorded behind it; health checks query that event.
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/cuda/pvc_check.h"
#include "gpu/cuda/pvc_kernel.h"
#include "gpu/cuda/pvc_ring.h"

#define PVC_DEF_SLOTS 256u
#define PVC_DEF_SLOT_BYTES (16u * 1024u)
#define PVC_MAX_SLOTS 65536u
#define PVC_MAX_SLOT_BYTES (64u * 1024u * 1024u)
#define PVC_MAX_ARENA ((size_t)4 << 30)

struct pv_cuda {
	int dev;
	cudaStream_t stream;       /* the kernel's own, non-blocking       */
	cudaStream_t side;         /* copies while the kernel runs          */
	cudaEvent_t done;          /* recorded behind the kernel            */
	int launched;
	int stopped;

	void *ring_mem;            /* pinned+mapped: ctl | desc[] | comp[]  */
	pvc_ctl *ctl;
	pvc_desc *desc;
	pvc_comp *comp;
	uint8_t *harena;           /* pinned+mapped data slots              */
	uint8_t *hstaging;         /* pinned, 32 bytes, one-shot            */
	uint8_t *darena;           /* device                                */
	pvc_devstate *dstate;      /* device                                */
	uint32_t *dstaging;        /* device, 32 bytes                      */
	pvc_kparams kp;

	uint32_t nslots, slot_bytes;
	pthread_mutex_t sub_mu;    /* ticket order = publication order      */
	uint32_t next_ticket;
	uint8_t *slot_busy;        /* host-only: 1 from submit to wait      */
	uint32_t *slot_cap;        /* host-only: out_cap of the slot's req  */
	uint32_t *slot_off;        /* host-only: out_off of the slot's req  */

	pthread_mutex_t why_mu;
	int sealed;                /* atomic                                */
	char why[256];
	uint64_t submitted, completed;   /* atomic */

	char device_name[256];
	int sm_count, blocks_per_sm, host_native_atomics;
	unsigned grid, block;
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
	if (*spins < 256) {
		__builtin_ia32_pause();
	} else if (*spins < 4096) {
		sched_yield();
	} else {
		struct timespec ts = { 0, 20000 };
		nanosleep(&ts, NULL);
	}
	(*spins)++;
}

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

static int pvc_read_key(const char *path, uint8_t key[32], char *err, size_t errlen)
{
	struct stat st;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pvc_msg(err, errlen, "master key %s: %s", path, strerror(errno));
		return PV_ERR_IO;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 32) {
		pvc_msg(err, errlen, "master key %s: not a 32-byte file", path);
		close(fd);
		return PV_ERR_KEY_SIZE;
	}
	got = read(fd, key, 32);
	close(fd);
	if (got != 32) {
		kc_wipe(key, 32);
		pvc_msg(err, errlen, "master key %s: short read", path);
		return PV_ERR_IO;
	}
	return PV_OK;
}

/* Wipe and free everything that exists.  Device memory first (it may hold
 * key material), with a device-wide sync: only after the kernel is gone. */
static void pvc_release(pv_cuda *v)
{
	size_t arena = (size_t)v->nslots * v->slot_bytes;
	if (v->darena != NULL)
		(void)PVC_CK(v, cudaMemsetAsync(v->darena, 0, arena, v->stream));
	if (v->dstaging != NULL)
		(void)PVC_CK(v, cudaMemsetAsync(v->dstaging, 0, 32, v->stream));
	if (v->dstate != NULL)
		(void)PVC_CK(v, cudaMemsetAsync(v->dstate, 0, sizeof *v->dstate, v->stream));
	if (v->stream != NULL)
		(void)PVC_CK(v, cudaStreamSynchronize(v->stream));
	if (v->harena != NULL)
		explicit_bzero(v->harena, arena);
	if (v->hstaging != NULL)
		kc_wipe(v->hstaging, 32);
	if (v->darena != NULL)
		(void)PVC_CK(v, cudaFree(v->darena));
	if (v->dstaging != NULL)
		(void)PVC_CK(v, cudaFree(v->dstaging));
	if (v->dstate != NULL)
		(void)PVC_CK(v, cudaFree(v->dstate));
	if (v->harena != NULL)
		(void)PVC_CK(v, cudaFreeHost(v->harena));
	if (v->hstaging != NULL)
		(void)PVC_CK(v, cudaFreeHost(v->hstaging));
	if (v->ring_mem != NULL)
		(void)PVC_CK(v, cudaFreeHost(v->ring_mem));
	if (v->done != NULL)
		(void)PVC_CK(v, cudaEventDestroy(v->done));
	if (v->stream != NULL)
		(void)PVC_CK(v, cudaStreamDestroy(v->stream));
	if (v->side != NULL)
		(void)PVC_CK(v, cudaStreamDestroy(v->side));
	free(v->slot_busy);
	free(v->slot_cap);
	free(v->slot_off);
	pthread_mutex_destroy(&v->sub_mu);
	pthread_mutex_destroy(&v->why_mu);
	free(v);
}

/* Health of the running kernel: PV_OK while it runs; seals otherwise. */
static int pvc_health(pv_cuda *v)
{
	cudaError_t e;
	if (__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE))
		return PV_ERR_SEALED;
	if (__atomic_load_n(&v->ctl->fatal, __ATOMIC_ACQUIRE)) {
		pvc_seal(v, "vault kernel reported fatal condition %u", v->ctl->fatal);
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

static int pvc_check_cfg(const pv_cuda_cfg *c, uint32_t *ns, uint32_t *sb, char *err, size_t errlen)
{
	*ns = c->nslots ? c->nslots : PVC_DEF_SLOTS;
	*sb = c->slot_bytes ? c->slot_bytes : PVC_DEF_SLOT_BYTES;
	if ((*ns & (*ns - 1u)) != 0 || *ns > PVC_MAX_SLOTS || *sb % 16u != 0 || *sb < 64 ||
	    *sb > PVC_MAX_SLOT_BYTES || (size_t)*ns * *sb > PVC_MAX_ARENA) {
		pvc_msg(err, errlen, "bad ring geometry: %u slots of %u bytes", *ns, *sb);
		return PV_ERR_ARGS;
	}
	if (c->master_key_path == NULL && c->master_key == NULL) {
		pvc_msg(err, errlen, "no master key");
		return PV_ERR_ARGS;
	}
	return PV_OK;
}

int pv_cuda_open(const pv_cuda_cfg *cfg, pv_cuda **out, char *err, size_t errlen)
{
	uint8_t mk[32];
	uint32_t ns, sb;
	size_t ring_bytes, arena;
	struct cudaDeviceProp prop;
	pv_cuda *v;
	void *dptr;
	int rc, bps = 0;
	uint64_t deadline;
	unsigned spins = 0;

	if (cfg == NULL || out == NULL)
		return PV_ERR_ARGS;
	*out = NULL;
	rc = pvc_check_cfg(cfg, &ns, &sb, err, errlen);
	if (rc != PV_OK)
		return rc;
	rc = pv_cuda_probe(cfg->device, err, errlen);
	if (rc != PV_OK)
		return rc;
	if (cfg->master_key_path != NULL) {
		rc = pvc_read_key(cfg->master_key_path, mk, err, errlen);
		if (rc != PV_OK)
			return rc;
	} else {
		memcpy(mk, cfg->master_key, 32);
	}

	v = (pv_cuda *)calloc(1, sizeof *v);
	if (v == NULL) {
		kc_wipe(mk, sizeof mk);
		return PV_ERR_NOMEM;
	}
	pthread_mutex_init(&v->sub_mu, NULL);
	pthread_mutex_init(&v->why_mu, NULL);
	v->dev = cfg->device < 0 ? 0 : cfg->device;
	v->nslots = ns;
	v->slot_bytes = sb;
	arena = (size_t)ns * sb;
	v->slot_busy = (uint8_t *)calloc(ns, 1);
	v->slot_cap = (uint32_t *)calloc(ns, sizeof(uint32_t));
	v->slot_off = (uint32_t *)calloc(ns, sizeof(uint32_t));
	if (v->slot_busy == NULL || v->slot_cap == NULL || v->slot_off == NULL) {
		rc = PV_ERR_NOMEM;
		goto fail;
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

	/* ring and arena: pinned, mapped, zeroed */
	ring_bytes = sizeof(pvc_ctl) + (size_t)ns * (sizeof(pvc_desc) + sizeof(pvc_comp));
	CK(cudaHostAlloc(&v->ring_mem, ring_bytes, cudaHostAllocMapped | cudaHostAllocPortable));
	memset(v->ring_mem, 0, ring_bytes);
	v->ctl = (pvc_ctl *)v->ring_mem;
	v->desc = (pvc_desc *)(v->ctl + 1);
	v->comp = (pvc_comp *)(v->desc + ns);
	CK(cudaHostAlloc((void **)&v->harena, arena, cudaHostAllocMapped | cudaHostAllocPortable));
	memset(v->harena, 0, arena);
	CK(cudaHostAlloc((void **)&v->hstaging, 32, cudaHostAllocDefault));

	CK(cudaMalloc((void **)&v->darena, arena));
	CK(cudaMalloc((void **)&v->dstate, sizeof(pvc_devstate)));
	CK(cudaMalloc((void **)&v->dstaging, 32));
	CK(cudaMemsetAsync(v->darena, 0, arena, v->stream));
	CK(cudaMemsetAsync(v->dstate, 0, sizeof(pvc_devstate), v->stream));

	/* master key: host -> pinned staging -> device staging; pinned staging
	 * and the stack copy wiped at once */
	memcpy(v->hstaging, mk, 32);
	kc_wipe(mk, sizeof mk);
	rc = PVC_CK(v, cudaMemcpyAsync(v->dstaging, v->hstaging, 32, cudaMemcpyHostToDevice, v->stream));
	if (rc == PV_OK)
		rc = PVC_CK(v, cudaStreamSynchronize(v->stream));
	kc_wipe(v->hstaging, 32);
	if (rc != PV_OK)
		goto fail;

	v->ctl->magic = PVC_RING_MAGIC;
	v->ctl->nslots = ns;
	v->ctl->slot_bytes = sb;
	CK(cudaHostGetDevicePointer(&dptr, v->ring_mem, 0));
	v->kp.ctl = (pvc_ctl *)dptr;
	v->kp.desc = (pvc_desc *)(v->kp.ctl + 1);
	v->kp.comp = (pvc_comp *)(v->kp.desc + ns);
	CK(cudaHostGetDevicePointer(&dptr, v->harena, 0));
	v->kp.harena = (uint8_t *)dptr;
	v->kp.darena = v->darena;
	v->kp.dev = v->dstate;
	v->kp.mk_staging = v->dstaging;
	v->kp.nslots = ns;
	v->kp.slot_bytes = sb;

	/* grid: every block resident (the kernel never returns) */
	CK(pvc_kernel_prepare(&bps));
	if (bps <= 0) {
		pvc_seal(v, "vault kernel does not fit on a multiprocessor");
		rc = PV_ERR_DEVICE;
		goto fail;
	}
	if (cfg->blocks_per_sm > 0 && (int)cfg->blocks_per_sm < bps)
		bps = (int)cfg->blocks_per_sm;
	v->blocks_per_sm = bps;
	v->block = pvc_kernel_block();
	v->grid = (unsigned)(v->sm_count * bps);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	CK(pvc_kernel_launch(&v->kp, v->grid, v->stream));
	v->launched = 1;
	CK(cudaEventRecord(v->done, v->stream));

	/* boot: every block holds the key and the staging is wiped */
	deadline = pvc_now_ns() + (uint64_t)(cfg->boot_timeout_ms ? cfg->boot_timeout_ms : 10000) * 1000000u;
	while (!__atomic_load_n(&v->ctl->booted, __ATOMIC_ACQUIRE)) {
		if ((spins & 63u) == 0 && pvc_health(v) != PV_OK) {
			rc = PV_ERR_DEVICE;
			goto fail;
		}
		if (pvc_now_ns() > deadline) {
			pvc_seal(v, "vault kernel did not boot in time (%u blocks not all resident?)", v->grid);
			rc = PV_ERR_DEVICE;
			goto fail;
		}
		pvc_relax(&spins);
	}
	if (__atomic_load_n(&v->ctl->fatal, __ATOMIC_ACQUIRE)) {
		pvc_seal(v, "vault kernel rejected the ring");
		rc = PV_ERR_DEVICE;
		goto fail;
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
	cudaError_t e;

	if (v == NULL)
		return PV_OK;
	if (v->launched && !v->stopped) {
		__atomic_store_n(&v->ctl->stop, 1u, __ATOMIC_RELEASE);
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
			if (!__atomic_load_n(&v->ctl->exited, __ATOMIC_ACQUIRE))
				pvc_seal(v, "vault kernel ended without its exit record");
		} else if (e != cudaErrorNotReady) {
			(void)PVC_CK(v, e);
		}
	}
	if (__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE))
		rc = PV_ERR_DEVICE;
	if (v->launched && !v->stopped) {
		/* a sticky error (trap, fault) poisons the context: reset it so the
		 * device memory is released and the vault can boot again */
		if (cudaEventQuery(v->done) == cudaErrorNotReady)
			return rc;        /* still running: cannot free under it */
		explicit_bzero(v->harena, (size_t)v->nslots * v->slot_bytes);
		(void)cudaDeviceReset();
		/* after the reset nothing of the old context may be touched */
		free(v->slot_busy);
		free(v->slot_cap);
		free(v->slot_off);
		pthread_mutex_destroy(&v->sub_mu);
		pthread_mutex_destroy(&v->why_mu);
		free(v);
		return rc;
	}
	pvc_release(v);
	return rc;
}

int pv_cuda_submit(pv_cuda *v, const pv_cuda_req *r, uint32_t *ticket)
{
	uint32_t t, s, out_off;
	unsigned spins = 0;
	pvc_desc *d;

	if (v == NULL || r == NULL || ticket == NULL || (r->in == NULL && r->in_len > 0))
		return PV_ERR_ARGS;
	if (__atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE))
		return PV_ERR_SEALED;
	out_off = (r->in_len + 15u) & ~15u;
	if (r->in_len > v->slot_bytes || out_off > v->slot_bytes || r->out_cap > v->slot_bytes - out_off)
		return PV_ERR_DATA_LEN;

	pthread_mutex_lock(&v->sub_mu);
	t = v->next_ticket;
	s = t & (v->nslots - 1u);
	while (__atomic_load_n(&v->slot_busy[s], __ATOMIC_ACQUIRE)) {
		if ((spins & 1023u) == 1023u && pvc_health(v) != PV_OK) {
			pthread_mutex_unlock(&v->sub_mu);
			return PV_ERR_SEALED;
		}
		pvc_relax(&spins);
	}
	v->slot_busy[s] = 1;
	v->slot_cap[s] = r->out_cap;
	v->slot_off[s] = out_off;
	v->next_ticket = t + 1u;
	if (r->in_len > 0)
		memcpy(v->harena + (size_t)s * v->slot_bytes, r->in, r->in_len);
	d = v->desc + s;
	d->op = r->op;
	d->alg = r->alg;
	d->param = r->param;
	d->in_len = r->in_len;
	d->out_off = out_off;
	d->out_cap = r->out_cap;
	d->flags = 0;
	__atomic_store_n(&d->seq, t + 1u, __ATOMIC_RELEASE);
	__atomic_store_n(&v->ctl->head, t + 1u, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&v->sub_mu);
	__atomic_fetch_add(&v->submitted, 1, __ATOMIC_RELAXED);
	*ticket = t;
	return PV_OK;
}

int pv_cuda_wait(pv_cuda *v, uint32_t ticket, pv_cuda_req *r)
{
	uint32_t s, out_len, cap;
	unsigned spins = 0;
	uint64_t next_check = 0;
	pvc_comp *c;
	int rc;

	if (v == NULL || r == NULL)
		return PV_ERR_ARGS;
	s = ticket & (v->nslots - 1u);
	c = v->comp + s;
	while (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != ticket + 1u) {
		if ((spins & 255u) == 255u) {
			uint64_t now = pvc_now_ns();
			if (now >= next_check) {
				next_check = now + 1000000u;   /* 1 ms */
				if (pvc_health(v) != PV_OK) {
					r->rc = PV_ERR_DEVICE;
					r->out_len = 0;
					return PV_ERR_DEVICE;
				}
			}
		}
		pvc_relax(&spins);
	}
	rc = (int)__atomic_load_n((uint32_t *)&c->rc, __ATOMIC_RELAXED);
	out_len = __atomic_load_n(&c->out_len, __ATOMIC_RELAXED);
	cap = v->slot_cap[s];
	if (r->out_cap < cap)
		cap = r->out_cap;
	if (out_len > cap) {
		out_len = 0;
		if (rc == PV_OK)
			rc = PV_ERR_BUF_SMALL;
	}
	if (out_len > 0 && r->out != NULL)
		memcpy(r->out, v->harena + (size_t)s * v->slot_bytes + v->slot_off[s], out_len);
	/* the slot's copy of input and output stays in pinned memory until the
	 * next request overwrites it; wipe it now */
	explicit_bzero(v->harena + (size_t)s * v->slot_bytes, v->slot_off[s] + out_len);
	r->rc = rc;
	r->out_len = out_len;
	__atomic_store_n(&v->slot_busy[s], 0, __ATOMIC_RELEASE);
	__atomic_fetch_add(&v->completed, 1, __ATOMIC_RELAXED);
	return rc;
}

int pv_cuda_call(pv_cuda *v, pv_cuda_req *r)
{
	uint32_t t;
	int rc = pv_cuda_submit(v, r, &t);
	if (rc != PV_OK) {
		r->rc = rc;
		r->out_len = 0;
		return rc;
	}
	return pv_cuda_wait(v, t, r);
}

int pv_cuda_info_get(pv_cuda *v, pv_cuda_info *info)
{
	if (v == NULL || info == NULL)
		return PV_ERR_ARGS;
	memset(info, 0, sizeof *info);
	pthread_mutex_lock(&v->why_mu);
	info->sealed = __atomic_load_n(&v->sealed, __ATOMIC_ACQUIRE);
	snprintf(info->why, sizeof info->why, "%s", v->why);
	pthread_mutex_unlock(&v->why_mu);
	snprintf(info->device_name, sizeof info->device_name, "%s", v->device_name);
	info->sm_count = v->sm_count;
	info->blocks_per_sm = v->blocks_per_sm;
	info->grid = v->grid;
	info->block = v->block;
	info->smem_bytes = pvc_kernel_smem();
	if (pvc_kernel_attrs(&info->regs, &info->local_bytes, &info->smem_bytes) == cudaSuccess)
		info->smem_bytes += pvc_kernel_smem();
	info->host_native_atomics = v->host_native_atomics;
	info->nslots = v->nslots;
	info->slot_bytes = v->slot_bytes;
	info->submitted = __atomic_load_n(&v->submitted, __ATOMIC_RELAXED);
	info->completed = __atomic_load_n(&v->completed, __ATOMIC_RELAXED);
	return PV_OK;
}

int pv_cuda_debug_staging_wiped(pv_cuda *v)
{
	uint8_t acc = 0;
	int rc;
	if (v == NULL)
		return PV_ERR_ARGS;
	for (int i = 0; i < 32; i++)
		acc |= v->hstaging[i];
	if (acc != 0)
		return PV_ERR_GENERAL;
	/* the copy engine reads the device staging while the kernel runs */
	rc = PVC_CK(v, cudaMemcpyAsync(v->hstaging, v->dstaging, 32, cudaMemcpyDeviceToHost, v->side));
	if (rc == PV_OK)
		rc = PVC_CK(v, cudaStreamSynchronize(v->side));
	if (rc != PV_OK)
		return rc;
	for (int i = 0; i < 32; i++)
		acc |= v->hstaging[i];
	kc_wipe(v->hstaging, 32);
	return acc == 0 ? PV_OK : PV_ERR_GENERAL;
}
