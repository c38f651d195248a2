/*
 * pv_dclient.h - the module's pvaultd transport (mode = daemon), used by
 * pv_vault.c to implement gpu/vault.h over a pvaultd connection.  Internal
 * to gpu/client: the layers above use gpu/vault.h only.
 *
 * No threads are created: each calling thread submits into the shared ring
 * and waits on its own request (shared futex on the slot's done_seq, with
 * a liveness check of the socket between sleeps).  No CUDA state: after a
 * fork the child's calls answer PV_ERR_REMOVED (the ring is MADV_DONTFORK)
 * until it opens a vault of its own.  When pvaultd goes away every call
 * answers PV_ERR_REMOVED; the first call made with no request in flight
 * after that reconnects (a restarted daemon serves it).  Nothing is sent
 * to a socket whose listener (SO_PEERCRED) is neither root nor the
 * configured daemon_uid (default: our own uid): PV_ERR_PERM.
 */
#ifndef PV_DCLIENT_H
#define PV_DCLIENT_H

#include "gpu/vault.h"
#include "gpu/client/pv_proto.h"

typedef struct pv_dclient pv_dclient;

int pv_dc_open(const pv_conf *conf, pv_dclient **out);
void pv_dc_close(pv_dclient *c);
int pv_dc_get_info(pv_dclient *c, pv_vault_info *info);
uint32_t pv_dc_max_data(pv_dclient *c);
int pv_dc_submit(pv_dclient *c, pv_req *r, int block);
int pv_dc_done(pv_dclient *c, const pv_req *r);
int pv_dc_wait(pv_dclient *c, pv_req *r);

/* Connect to path, check that the listener is root or daemon_uid (-1:
 * our own euid; PV_ERR_PERM with a logged message, nothing sent, if not)
 * and say HELLO; returns the socket, the mapped ring and the reply (test
 * helper too). */
int pv_dc_connect(const char *path, int64_t daemon_uid, uint32_t nslots, uint32_t slot_arena,
                  int *fd, uint8_t **ring, pvp_hello_ok *ok);

#endif
