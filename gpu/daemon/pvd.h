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
#define PVD_NOTE_UIDS 32              /* uids a log interval tells apart */

typedef struct pvd_client pvd_client;

/* Why a connection was refused (pvd_note). */
enum {
	PVD_NO_POLICY,       /* the SO_PEERCRED policy does not admit the uid  */
	PVD_NO_TOTAL,        /* max_conn connections open                      */
	PVD_NO_UID,          /* max_conn_uid connections of this uid open      */
	PVD_NO_FDS,          /* the daemon is out of file descriptors          */
	PVD_NO_THREAD,       /* no thread could be started                     */
	PVD_NO_MEMORY,       /* the memory for all clients is spent            */
	PVD_NO_UID_MEMORY,   /* the memory for this uid's clients is spent     */
	PVD_NO_REASONS
};

typedef struct pvd_note_ent {
	uid_t uid;
	uint32_t reason, n;  /* n: refusals after the one logged at once       */
} pvd_note_ent;

typedef struct pvd_uid_ent {
	uid_t uid;
	uint32_t n;          /* connections open                               */
	uint64_t mem;        /* bytes of their rings and worker buffers        */
} pvd_uid_ent;

typedef struct pvd {
	pv_vault *backend;
	pv_vault_info binfo;
	uint32_t workers_per_client;       /* daemon threads per ring       */
	/* limits (pixelvault.conf daemon_*, flags; docs/daemon.md "Limits") */
	uint32_t max_conn, max_conn_uid, hello_timeout_s, log_interval_s;
	uint64_t client_mem, uid_mem, total_mem;   /* bytes                 */
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
	/* under mu: connections per uid (nuid entries, at most max_conn),
	 * bytes of every client's ring and worker buffers */
	pvd_uid_ent *uids;
	uint32_t nuid;
	uint64_t mem_used;
	/* refused connections in the current log interval (note_mu) */
	pthread_mutex_t note_mu;
	pvd_note_ent note[PVD_NOTE_UIDS];
	uint32_t nnote, note_other;
	uint64_t note_end_ms;
} pvd;

/* Serve one accepted, admitted connection of uid (thread body). */
void pvd_serve(pvd *d, int fd, uid_t uid);
/* Send ERROR{code} (best effort). */
void pvd_send_error(int fd, int code);
/* Count a request result. */
void pvd_count(pvd *d, uint32_t op, uint32_t mech, int status);
/* SIGTERM: drop every client connection (their rings drain and free). */
void pvd_drain_all(pvd *d);

/* pvd_gate.c.  Raise RLIMIT_NOFILE to what max_conn needs, or lower
 * max_conn to what the limit allows (with a warning). */
void pvd_fd_budget(pvd *d);
/* Accept, admit or refuse, until SIGTERM/SIGINT on sfd (d->stop set). */
void pvd_gate_run(pvd *d, int lfd, int sfd);

/* pvd_limits.c.  Admit one more connection of uid (mu taken inside):
 * PV_OK, or the PVD_NO_* reason as a positive number. */
int pvd_conn_take(pvd *d, uid_t uid);
void pvd_conn_give(pvd *d, uid_t uid);
/* Reserve the memory of a client's ring of *nslots x *arena plus its
 * workers' buffers, for a connection of uid (admitted by pvd_conn_take):
 * shrinks *nslots (and, past one client's share, *arena) to fit; *bytes is
 * what was reserved.  PVD_NO_UID_MEMORY / PVD_NO_MEMORY if even the
 * smallest ring does not fit in what the uid's other clients, or all
 * clients, left. */
int pvd_mem_take(pvd *d, uid_t uid, uint32_t *nslots, uint32_t *arena, uint64_t *bytes);
void pvd_mem_give(pvd *d, uid_t uid, uint64_t bytes);
/* Workers of a client with nslots slots. */
uint32_t pvd_workers(const pvd *d, uint32_t nslots);
/* Log a refused connection at a bounded rate: the first of each (uid,
 * reason) in an interval at once, later ones as one count per interval
 * (pvd_note_flush). */
void pvd_note(pvd *d, int reason, uid_t uid, gid_t gid, pid_t pid);
/* Write the summaries of an interval that has ended (now_ms: monotonic). */
void pvd_note_flush(pvd *d, uint64_t now_ms, int force);
uint64_t pvd_now_ms(void);

#endif
