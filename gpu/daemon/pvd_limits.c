/*
 * pvd_limits.c - what one peer may hold of pvaultd: connections per uid and
 * in total, memory of the clients' rings and worker buffers, and the log
 * lines its refused connections may cost (docs/daemon.md, "Limits").
 *
 * Every admitted connection holds one serving thread (and, once it has a
 * ring, pvd_workers() more), one descriptor and its ring's memory, so
 * bounding connections bounds threads and descriptors; the memory budget
 * bounds what those connections may ask for in their HELLO.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu/daemon/pvd.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

uint64_t pvd_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int pvd_conn_take(pvd *d, uid_t uid)
{
	uint32_t i;
	int rc = PV_OK;

	pthread_mutex_lock(&d->mu);
	for (i = 0; i < d->nuid; i++)
		if (d->uids[i].uid == uid)
			break;
	if (d->nconn >= d->max_conn)
		rc = PVD_NO_TOTAL;
	else if (i < d->nuid && d->uids[i].n >= d->max_conn_uid)
		rc = PVD_NO_UID;
	else {
		/* nuid < max_conn here: each listed uid has a connection open */
		if (i == d->nuid) {
			d->uids[i].uid = uid;
			d->uids[i].n = 0;
			d->uids[i].mem = 0;
			d->nuid++;
		}
		d->uids[i].n++;
		d->nconn++;
	}
	pthread_mutex_unlock(&d->mu);
	return rc;
}

void pvd_conn_give(pvd *d, uid_t uid)
{
	uint32_t i;

	pthread_mutex_lock(&d->mu);
	for (i = 0; i < d->nuid; i++)
		if (d->uids[i].uid == uid) {
			if (--d->uids[i].n == 0)
				d->uids[i] = d->uids[--d->nuid];
			break;
		}
	d->nconn--;
	pthread_cond_broadcast(&d->cv);
	pthread_mutex_unlock(&d->mu);
}

uint32_t pvd_workers(const pvd *d, uint32_t nslots)
{
	return d->workers_per_client < nslots ? d->workers_per_client : nslots;
}

static uint64_t client_bytes(const pvd *d, uint32_t ns, uint32_t ar)
{
	return ve_ring_bytes(ns, ar) + (uint64_t)pvd_workers(d, ns) * ar;
}

static pvd_uid_ent *uid_ent(pvd *d, uid_t uid)
{
	uint32_t i;
	for (i = 0; i < d->nuid; i++)
		if (d->uids[i].uid == uid)
			return &d->uids[i];
	return NULL;
}

int pvd_mem_take(pvd *d, uid_t uid, uint32_t *nslots, uint32_t *arena, uint64_t *bytes)
{
	uint32_t ns = *nslots, ar = *arena;
	uint64_t b, mine;
	pvd_uid_ent *u;
	int rc = PV_OK;

	/* one client's share: fewer slots first (a request still fits), then
	 * smaller slots */
	while (ns > PVP_SLOTS_MIN && client_bytes(d, ns, ar) > d->client_mem)
		ns /= 2u;
	while (ar > PVP_ARENA_MIN && client_bytes(d, ns, ar) > d->client_mem)
		ar = (ar / 2u) & ~63u;
	if (ar < PVP_ARENA_MIN)
		ar = PVP_ARENA_MIN;
	/* what the uid's other clients and all others left: fewer slots only,
	 * so that a request the client could send to an idle daemon still
	 * fits */
	pthread_mutex_lock(&d->mu);
	u = uid_ent(d, uid);
	mine = u != NULL ? u->mem : 0;
	while (ns > PVP_SLOTS_MIN && (mine + client_bytes(d, ns, ar) > d->uid_mem ||
	                              d->mem_used + client_bytes(d, ns, ar) > d->total_mem))
		ns /= 2u;
	b = client_bytes(d, ns, ar);
	if (mine + b > d->uid_mem)
		rc = PVD_NO_UID_MEMORY;
	else if (d->mem_used + b > d->total_mem)
		rc = PVD_NO_MEMORY;
	else {
		d->mem_used += b;
		if (u != NULL)
			u->mem += b;
	}
	pthread_mutex_unlock(&d->mu);
	*nslots = ns;
	*arena = ar;
	*bytes = rc == PV_OK ? b : 0;
	return rc;
}

void pvd_mem_give(pvd *d, uid_t uid, uint64_t bytes)
{
	pvd_uid_ent *u;
	pthread_mutex_lock(&d->mu);
	d->mem_used -= bytes;
	u = uid_ent(d, uid);
	if (u != NULL)
		u->mem -= bytes;
	pthread_mutex_unlock(&d->mu);
}

static const char *why(const pvd *d, uint32_t reason, char *buf, size_t cap)
{
	switch (reason) {
	case PVD_NO_POLICY:
		return "the access policy does not admit it (-u / -g)";
	case PVD_NO_TOTAL:
		snprintf(buf, cap, "the daemon's connection limit (%u) is reached", d->max_conn);
		return buf;
	case PVD_NO_UID:
		snprintf(buf, cap, "its uid's connection limit (%u) is reached", d->max_conn_uid);
		return buf;
	case PVD_NO_FDS:
		return "the daemon is out of file descriptors";
	case PVD_NO_THREAD:
		return "no thread could be started for it";
	case PVD_NO_UID_MEMORY:
		snprintf(buf, cap, "the memory for its uid's rings (%llu MiB) is in use",
		         (unsigned long long)(d->uid_mem >> 20));
		return buf;
	default:
		snprintf(buf, cap, "the memory for clients' rings (%llu MiB) is in use",
		         (unsigned long long)(d->total_mem >> 20));
		return buf;
	}
}

void pvd_note(pvd *d, int reason, uid_t uid, gid_t gid, pid_t pid)
{
	char buf[96];
	uint32_t i;
	int first = 0;

	pthread_mutex_lock(&d->mu);
	d->refused++;
	pthread_mutex_unlock(&d->mu);
	pthread_mutex_lock(&d->note_mu);
	if (d->note_end_ms == 0)
		d->note_end_ms = pvd_now_ms() + (uint64_t)d->log_interval_s * 1000u;
	for (i = 0; i < d->nnote; i++)
		if (d->note[i].uid == uid && d->note[i].reason == (uint32_t)reason)
			break;
	if (i < d->nnote) {
		d->note[i].n++;
	} else if (d->nnote < PVD_NOTE_UIDS) {
		d->note[d->nnote].uid = uid;
		d->note[d->nnote].reason = (uint32_t)reason;
		d->note[d->nnote].n = 0;
		d->nnote++;
		first = 1;
	} else {
		d->note_other++;
	}
	/* logged under note_mu: a flush cannot report this one first */
	if (first)
		pv_log(PV_LOG_WARN, "pvaultd: refused a connection from uid %u gid %u pid %d: %s",
		       (unsigned)uid, (unsigned)gid, (int)pid, why(d, (uint32_t)reason, buf, sizeof buf));
	pthread_mutex_unlock(&d->note_mu);
}

void pvd_note_flush(pvd *d, uint64_t now_ms, int force)
{
	char buf[96];
	uint32_t i;

	pthread_mutex_lock(&d->note_mu);
	if (d->note_end_ms == 0 || (!force && now_ms < d->note_end_ms)) {
		pthread_mutex_unlock(&d->note_mu);
		return;
	}
	for (i = 0; i < d->nnote; i++)
		if (d->note[i].n > 0)
			pv_log(PV_LOG_WARN, "pvaultd: refused %u more connections from uid %u in the last %u s: %s",
			       d->note[i].n, (unsigned)d->note[i].uid, d->log_interval_s,
			       why(d, d->note[i].reason, buf, sizeof buf));
	if (d->note_other > 0)
		pv_log(PV_LOG_WARN, "pvaultd: refused %u connections from other uids in the last %u s",
		       d->note_other, d->log_interval_s);
	d->nnote = 0;
	d->note_other = 0;
	d->note_end_ms = 0;
	pthread_mutex_unlock(&d->note_mu);
}
