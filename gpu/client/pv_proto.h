/*
 * pv_proto.h - the pvaultd wire protocol (module <-> daemon), shared by
 * gpu/client (the module's daemon transport) and gpu/daemon (pvaultd).
 *
 * Transport: an AF_UNIX SOCK_SEQPACKET socket (message boundaries kept).
 * Every message starts with pvp_hdr; hdr.len is the whole message size and
 * must equal the size of the message type (fixed-size messages only).
 * The first message on a connection chooses what it is:
 *
 *   HELLO   -> HELLO_OK + one memfd (SCM_RIGHTS): the client's request ring,
 *              laid out exactly like gpu/engine/ve_ring.h.  The connection
 *              then stays open and silent: the client is the ring's
 *              producer, pvaultd the worker (ve_ring.h steps 5-8), with
 *              shared futexes on ready_seq / done_seq as doorbells.  EOF on
 *              the socket = the client is gone (pvaultd frees its ring) or
 *              the daemon is gone (the client answers PV_ERR_REMOVED).
 *   STATUS  -> STATUS_OK, then pvaultd closes the connection.
 *
 * Before sending anything the client checks the listener's SO_PEERCRED
 * (root or the configured daemon_uid, pv_dclient.c).
 *
 * Errors: a peer refused by the SO_PEERCRED policy gets ERROR{PV_ERR_PERM};
 * one over the daemon's connection limits, or whose HELLO's ring does not
 * fit its memory budgets, gets ERROR{PV_ERR_BUSY};
 * a malformed first message (short, long, bad magic/version/type/len, out
 * of range geometry) gets ERROR{PV_ERR_PROTOCOL} and the connection
 * is dropped; any message after HELLO (a replayed HELLO included) gets
 * ERROR and the connection and its ring are dropped.  Requests in the ring
 * are copied out of the shared memory before they are validated; a bad
 * descriptor is answered in its slot (res.status = PV_ERR_ARGS, ...).
 */
#ifndef PV_PROTO_H
#define PV_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/engine/ve_proto.h"

#define PVP_MAGIC    0x50564450u   /* "PVDP" */
#define PVP_VERSION  1u

#define PVP_HELLO      1u
#define PVP_HELLO_OK   2u
#define PVP_STATUS     3u
#define PVP_STATUS_OK  4u
#define PVP_ERROR      5u
#define PVP_TYPE_MAX   5u

/* ring geometry limits (the daemon clamps requests into these) */
#define PVP_SLOTS_MIN       2u
#define PVP_SLOTS_MAX     256u
#define PVP_SLOTS_DEF      16u
#define PVP_ARENA_MIN    4096u
#define PVP_ARENA_MAX   ((2u << 20) + (64u << 10))
#define PVP_ARENA_DEF   (256u << 10)
#define PVP_MSG_MAX      4096u

#define PVP_STATUS_MECHS   48u

typedef struct pvp_hdr {
	uint32_t magic, version, type, len;
} pvp_hdr;

typedef struct pvp_hello {
	pvp_hdr h;
	uint32_t nslots;       /* wanted slots (power of two), 0 = default  */
	uint32_t slot_arena;   /* wanted bytes per slot, 0 = default         */
	uint32_t rsv[6];       /* zero                                       */
} pvp_hello;

typedef struct pvp_hello_ok {
	pvp_hdr h;
	uint32_t nslots, slot_arena;
	uint64_t ring_bytes;   /* size of the memfd                          */
	char backend[16];
	char device[64];
	int32_t sealed, seal_reason, hw;
	uint32_t workers;      /* daemon workers serving this client         */
} pvp_hello_ok;

typedef struct pvp_error {
	pvp_hdr h;
	int32_t code;          /* PV_ERR_*                                   */
	uint32_t rsv;
} pvp_error;

typedef struct pvp_mech_count {
	uint32_t op, mech;
	uint64_t ok, err;
} pvp_mech_count;

typedef struct pvp_status_ok {
	pvp_hdr h;
	char backend[16];
	char device[64];
	int32_t sealed, seal_reason;
	uint32_t pid;
	uint32_t clients;          /* ring connections now                    */
	uint32_t queue_depth;      /* requests executing now                  */
	uint32_t nmech;            /* entries used in mech[]                  */
	uint64_t uptime_s;
	uint64_t completed;        /* requests answered PV_OK                 */
	uint64_t errors;           /* requests answered with an error         */
	uint64_t refused;          /* connections refused: policy or limits   */
	uint64_t proto_errors;     /* malformed messages / dropped clients    */
	uint64_t clients_total;    /* ring connections since start            */
	pvp_mech_count mech[PVP_STATUS_MECHS];
} pvp_status_ok;

/* Fill a header for a message of type t and size n. */
void pvp_hdr_set(pvp_hdr *h, uint32_t t, size_t n);

/* Check a received message: n bytes at buf (n as returned by recv with
 * MSG_TRUNC, so it may exceed the buffer).  Returns PV_OK and *type, or
 * PV_ERR_PROTOCOL for anything malformed (short, oversized, bad magic,
 * version, type, len field, non-zero reserved words, geometry out of
 * range).  Never reads past min(n, cap). */
int pvp_check(const void *buf, size_t n, size_t cap, uint32_t *type);

/* Daemon side: a request descriptor already COPIED out of shared memory,
 * and a private arena of arena_len bytes holding copies of its inputs.
 * Checks every span (inputs and outputs) against arena_len and the per-op
 * limits that do not need the key, and fills the vault.h request with
 * pointers into arena.  Returns PV_OK or PV_ERR_ARGS / PV_ERR_DATA_LEN.
 * Does not read the arena. */
struct pv_req;
int pvp_desc_check(const ve_desc *d, uint32_t arena_len);
int pvp_desc_to_req(const ve_desc *d, uint8_t *arena, uint32_t arena_len, struct pv_req *r);

#endif
