/*
 * pv_vault.c - gpu/vault.h in embedded mode: the vault runs in this process
 * on the CUDA backend (a persistent kernel serving the ring from the GPU)
 * or the CPU backend (worker threads); requests go through the same ring
 * either way (pvaultd serves it too, in daemon mode).
 *
 * Backend choice (conf->backend, $PIXELVAULT_BACKEND overrides it):
 * "cuda" needs a usable device (else PV_ERR_DEVICE, reason logged); "auto"
 * takes CUDA when this build has it and pv_cuda_probe() accepts the device,
 * else the CPU (the reason logged at info level); "cpu" is the CPU.
 *
 * The ring's producer side is gpu/client/pv_producer.c (shared with the
 * pvaultd transport); for CUDA its waits poll before they sleep, since the
 * GPU cannot FUTEX_WAKE (pv_cuda's watchdog wakes sleepers within ~1 ms).
 */
#include "gpu/vault.h"
#include "gpu/cpu/pv_cpu.h"
#ifdef PV_HAVE_CUDA
#include "gpu/cuda/pv_cuda.h"
#endif
#include "gpu/client/pv_dclient.h"
#include "gpu/client/pv_producer.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_pid.h"
#include "gpu/host/pv_secmem.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pv_vault {
	pv_cpu *cpu;
#ifdef PV_HAVE_CUDA
	pv_cuda *cuda;
#endif
	pv_dclient *dc;              /* mode = daemon: pvaultd transport */
	pv_producer pr;              /* embedded: the backend's ring     */
	pid_t pid;
	pv_vault_info info;
};

static int vault_finish_open(pv_vault *v, void *ring, uint32_t nslots, uint32_t slot_arena, int gpu)
{
	int rc = pvp_attach(&v->pr, ring, nslots, slot_arena, gpu, PV_FUTEX_PRIVATE);
	if (rc != PV_OK)
		return rc;
	v->pid = pv_pid();
	v->info.nslots = nslots;
	v->info.max_data = slot_arena;
	return PV_OK;
}

static void cpu_exec(void *ctx, void *slot, uint32_t t)
{
	pv_cpu_execute((pv_cpu *)ctx, slot, t);
}

static int open_cpu(const pv_conf *conf, const pv_cpu_params *p, pv_vault *v)
{
	int inline_exec = conf != NULL ? pv_conf_cpu_inline(conf) : p->inline_exec;
	int rc = conf != NULL ? pv_cpu_open_conf(conf, &v->cpu) : pv_cpu_open(p, &v->cpu);
	if (rc != PV_OK)
		return rc;
	snprintf(v->info.backend, sizeof v->info.backend, "cpu");
	if (inline_exec)
		snprintf(v->info.device, sizeof v->info.device, "host CPU, in the calling threads");
	else
		snprintf(v->info.device, sizeof v->info.device, "host CPU, %u worker threads",
		         pv_cpu_workers(v->cpu));
	v->info.sealed = pv_cpu_sealed(v->cpu);
	v->info.seal_reason = pv_cpu_seal_reason(v->cpu);
	v->info.workers = pv_cpu_workers(v->cpu);
	snprintf(v->info.master_fpr, sizeof v->info.master_fpr, "%s",
	         pv_cpu_master_fpr(v->cpu));
	{
		uint32_t ns, sa;
		void *ring = pv_cpu_ring(v->cpu, &ns, &sa);
		rc = vault_finish_open(v, ring, ns, sa, 0);
	}
	if (rc == PV_OK && inline_exec) {
		v->pr.exec = cpu_exec;
		v->pr.exec_ctx = v->cpu;
	}
	return rc;
}

#ifdef PV_HAVE_CUDA
/* Requests with this many bytes of inputs go to the GPU by the copy
 * engine (pv_cuda_stage); below it the kernel loads them itself, which
 * costs a small request less than a copy's round trip.
 * $PIXELVAULT_CUDA_STAGE_MIN overrides it (bytes; 0: never). */
#define PV_CUDA_STAGE_MIN (256u << 10)

static int cuda_stage(void *ctx, uint32_t slot, uint32_t bytes)
{
	return pv_cuda_stage((pv_cuda *)ctx, slot, bytes);
}

static void set_stage(pv_vault *v)
{
	const char *e = getenv("PIXELVAULT_CUDA_STAGE_MIN");
	unsigned long n = PV_CUDA_STAGE_MIN;
	char *end = NULL;

	if (e != NULL && e[0] != '\0') {
		errno = 0;
		n = strtoul(e, &end, 10);
		if (errno != 0 || *end != '\0' || e[0] == '-' || n > UINT32_MAX) {
			pv_log(PV_LOG_WARN, "PIXELVAULT_CUDA_STAGE_MIN=%s is not a byte count; using %u",
			       e, PV_CUDA_STAGE_MIN);
			n = PV_CUDA_STAGE_MIN;
		}
	}
	v->pr.stage = n != 0 ? cuda_stage : NULL;
	v->pr.stage_ctx = v->cuda;
	v->pr.stage_min = (uint32_t)n;
}

/* master: 32 bytes or NULL (sealed, for the reason no_master). */
static int open_cuda(int device, uint32_t nslots, uint32_t blocks_per_sm, const uint8_t *master,
                     int no_master, pv_vault *v)
{
	pv_cuda_params p;
	pv_cuda_info ci;
	char err[256];
	int rc;

	memset(&p, 0, sizeof p);
	p.device = device;
	/* the token sizes single-part operations by max_data: the same arena
	 * as the CPU backend's, more slots (requests in flight; gpu_slots) */
	p.nslots = nslots != 0 ? nslots : 128;
	p.blocks_per_sm = blocks_per_sm;
	p.slot_arena = PV_CPU_DEFAULT_ARENA;
	p.master = master;
	p.master_len = master != NULL ? PV_MASTER_KEY_LEN : 0;
	rc = pv_cuda_open(&p, &v->cuda, err, sizeof err);
	if (rc != PV_OK) {
		pv_log(PV_LOG_WARN, "CUDA backend: %s", err);
		return rc;
	}
	if (pv_cuda_info_get(v->cuda, &ci) != PV_OK)
		memset(&ci, 0, sizeof ci);
	snprintf(v->info.backend, sizeof v->info.backend, "cuda");
	/* one request per block; one block polls the ring */
	snprintf(v->info.device, sizeof v->info.device, "%.36s, %u worker blocks",
	         ci.device_name, ci.grid > 1u ? ci.grid - 1u : 1u);
	v->info.hw = 1;
	v->info.workers = ci.grid > 1u ? ci.grid - 1u : 1u;
	v->info.sealed = pv_cuda_sealed(v->cuda);
	v->info.seal_reason = master != NULL ? pv_cuda_seal_reason(v->cuda) : no_master;
	if (master != NULL && !v->info.sealed)
		pv_master_fingerprint(master, v->info.master_fpr);
	{
		uint32_t ns, sa;
		void *ring = pv_cuda_ring(v->cuda, &ns, &sa);
		rc = vault_finish_open(v, ring, ns, sa, 1);
		if (rc == PV_OK)
			set_stage(v);
		return rc;
	}
}
#endif

/* 1: use CUDA, 0: use the CPU, PV_ERR_*: refuse (backend "cuda" without a
 * usable device, or an unknown name).  *required: the config said cuda
 * (auto falls back to the CPU when the CUDA vault does not boot either). */
static int want_cuda(const char *backend, int device, int *required)
{
	int need;

	if (backend == NULL || backend[0] == '\0' || strcmp(backend, "auto") == 0)
		need = 0;
	else if (strcmp(backend, "cuda") == 0)
		need = 1;
	else if (strcmp(backend, "cpu") == 0)
		return 0;
	else
		return PV_ERR_CONFIG;
	*required = need;
#ifdef PV_HAVE_CUDA
	{
		char why[256];
		if (pv_cuda_probe(device, why, sizeof why) == PV_OK)
			return 1;
		pv_log(need ? PV_LOG_WARN : PV_LOG_INFO, "CUDA backend unavailable: %s", why);
	}
#else
	(void)device;
	if (need)
		pv_log(PV_LOG_WARN, "backend = cuda, but this build has no CUDA backend");
#endif
	return need ? PV_ERR_DEVICE : 0;
}

static int open_embedded(const pv_conf *conf, const uint8_t *master, size_t master_len,
                         uint32_t workers, uint32_t nslots, uint32_t max_data,
                         pv_vault **out, int cpu_only)
{
	const char *backend = conf != NULL ? conf->backend : getenv("PIXELVAULT_BACKEND");
	int device = conf != NULL ? (int)conf->gpu_device : 0;
	int required = 0;
	int cuda;
	pv_vault *v;
	int rc;

	if (conf != NULL && conf->no_threads) {
		/* the CUDA backend needs its watchdog thread */
		if (strcmp(conf->backend, "cuda") == 0) {
			pv_log(PV_LOG_WARN, "backend = cuda needs a thread of its own, and the "
			       "application forbids library threads");
			return PV_ERR_CONFIG;
		}
		cpu_only = 1;
	}
	cuda = cpu_only ? 0 : want_cuda(backend, device, &required);
	if (cuda < 0)
		return cuda;
	v = (pv_vault *)calloc(1, sizeof *v);
	if (v == NULL)
		return PV_ERR_NOMEM;
	if (cuda) {
#ifdef PV_HAVE_CUDA
		uint8_t *mk = NULL;
		int mrc = PV_OK;
		if (conf != NULL) {
			mk = (uint8_t *)pv_secmem_alloc(PV_MASTER_KEY_LEN);
			if (mk == NULL) {
				free(v);
				return PV_ERR_NOMEM;
			}
			mrc = pv_master_load(conf->master_key, mk);
			rc = open_cuda(device, conf->gpu_slots, conf->gpu_blocks_per_sm, mrc == PV_OK ? mk : NULL, mrc, v);
			pv_secmem_free(mk);      /* wiped: the GPU holds the key now */
		} else {
			rc = master_len == PV_MASTER_KEY_LEN
			     ? open_cuda(device, 0, 0, master, 0, v)
			     : open_cuda(device, 0, 0, NULL, PV_ERR_NOT_FOUND, v);
		}
#else
		rc = PV_ERR_DEVICE;
#endif
		if (rc != PV_OK && !required) {
			/* auto: e.g. another process's vault holds the GPU */
			pv_log(PV_LOG_WARN, "the CUDA vault did not open (%s): using the CPU backend", pv_strerror(rc));
			pv_vault_close(v);
			return open_embedded(conf, master, master_len, workers, nslots, max_data, out, 1);
		}
	} else {
		pv_cpu_params p;
		memset(&p, 0, sizeof p);
		p.master = master;
		p.master_len = master_len;
		p.workers = workers;
		p.nslots = nslots;
		p.slot_arena = max_data;
		rc = open_cpu(conf, &p, v);
	}
	if (rc != PV_OK) {
		pv_vault_close(v);
		return rc;
	}
	*out = v;
	return PV_OK;
}

int pv_vault_open(const pv_conf *conf, pv_vault **out)
{
	pv_vault *v;
	int rc;

	*out = NULL;
	if (conf == NULL)
		return PV_ERR_ARGS;
	if (conf->mode[0] != '\0' && strcmp(conf->mode, "daemon") == 0) {
		v = (pv_vault *)calloc(1, sizeof *v);
		if (v == NULL)
			return PV_ERR_NOMEM;
		if ((rc = pv_dc_open(conf, &v->dc)) != PV_OK) {
			free(v);
			return rc;
		}
		*out = v;
		return PV_OK;
	}
	if (conf->mode[0] != '\0' && strcmp(conf->mode, "embedded") != 0)
		return PV_ERR_CONFIG;
	return open_embedded(conf, NULL, 0, 0, 0, 0, out, 0);
}

int pv_vault_open_key(const uint8_t *master, size_t master_len, uint32_t workers,
                      uint32_t nslots, uint32_t max_data, pv_vault **out)
{
	*out = NULL;
	return open_embedded(NULL, master, master_len, workers, nslots, max_data, out, 0);
}

void pv_vault_close(pv_vault *v)
{
	if (v == NULL)
		return;
	if (v->dc != NULL) {
		pv_dc_close(v->dc);
		free(v);
		return;
	}
	pv_cpu_close(v->cpu);
#ifdef PV_HAVE_CUDA
	if (v->cuda != NULL && v->pid == pv_pid())
		pv_cuda_close(v->cuda);   /* a forked child must not touch CUDA */
#endif
	pvp_release(&v->pr);
	free(v);
}

int pv_vault_get_info(pv_vault *v, pv_vault_info *info)
{
	if (v == NULL || info == NULL)
		return PV_ERR_ARGS;
	if (v->dc != NULL)
		return pv_dc_get_info(v->dc, info);
	*info = v->info;
	return PV_OK;
}

uint32_t pv_vault_max_data(pv_vault *v)
{
	if (v == NULL)
		return 0;
	if (v->dc != NULL)
		return pv_dc_max_data(v->dc);
	return v->info.max_data;
}

void pv_req_init(pv_req *r, uint32_t op, uint32_t mech)
{
	memset(r, 0, sizeof *r);
	r->op = op;
	r->mech = mech;
}

static int submit(pv_vault *v, pv_req *r, int block)
{
	if (v == NULL || r == NULL)
		return PV_ERR_ARGS;
	if (v->dc != NULL)
		return pv_dc_submit(v->dc, r, block);
	if (pv_pid() != v->pid)
		return r->status = PV_ERR_REMOVED;
	return pvp_submit(&v->pr, r, block, NULL, NULL);
}

int pv_vault_submit(pv_vault *v, pv_req *r)
{
	return submit(v, r, 1);
}

int pv_vault_try_submit(pv_vault *v, pv_req *r)
{
	return submit(v, r, 0);
}

int pv_vault_done(pv_vault *v, const pv_req *r)
{
	if (v != NULL && v->dc != NULL)
		return pv_dc_done(v->dc, r);
	return pvp_done(r);
}

int pv_vault_wait(pv_vault *v, pv_req *r)
{
	if (v == NULL || r == NULL)
		return PV_ERR_ARGS;
	if (v->dc != NULL)
		return pv_dc_wait(v->dc, r);
	return pvp_wait(&v->pr, r, NULL, NULL);
}

int pv_vault_call(pv_vault *v, pv_req *r)
{
	int rc = pv_vault_submit(v, r);
	if (rc != PV_OK)
		return rc;
	return pv_vault_wait(v, r);
}
