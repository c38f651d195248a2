/*
 * pvd.h - pvaultd internals: global state, per-client rings, statistics.
 */
#ifndef PVD_H
#define PVD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "gpu/vault.h"
#include "gpu/client/pv_proto.h"

#define PVD_MAX_ALLOW 16
#define PVD_RING_MAX  (64ull << 20)   /* largest ring of one client */

typedef struct pvd_client pvd_client;

typedef struct pvd {
	pv_vault *backend;
	pv_vault_info binfo;
	uint32_t workers_per_client;       /* daemon threads per ring       */
	uid_t owner_uid;
	uid_t allow_uid[PVD_MAX_ALLOW]; int nallow_uid;
	gid_t allow_gid[PVD_MAX_ALLOW]; int nallow_gid;
	_Atomic int stop;                  /* SIGTERM: drain                */
	pthread_mutex_t mu;                /* clients list, stats, nconn    */
	pthread_cond_t cv;
	pvd_client *clients;
	uint32_t nclients, nconn;
	_Atomic uint32_t queue_depth;
	uint64_t completed, errors, refused, proto_errors, clients_total;
	uint32_t nmech;
	pvp_mech_count mech[PVP_STATUS_MECHS];
	uint64_t t0;
} pvd;

/* Serve one accepted, policy-checked connection (thread body). */
void pvd_serve(pvd *d, int fd);
/* Send ERROR{code} (best effort). */
void pvd_send_error(int fd, int code);
/* Count a request result. */
void pvd_count(pvd *d, uint32_t op, uint32_t mech, int status);
/* SIGTERM: drop every client connection (their rings drain and free). */
void pvd_drain_all(pvd *d);

#endif
