/*
 * pvd_login.h - pvaultd's login state: the tickets of one client
 * connection, one per token, kept in the daemon (locked, undumpable
 * memory) and never sent to the client.
 *
 * A client's LOGIN is executed by the backend vault; its ticket stays
 * here and the client gets an empty answer.  Every later request that
 * names the token (token_id) gets that ticket put in by the daemon; a
 * ticket the client sends itself is ignored.  LOGOUT drops the ticket; so
 * does the end of the connection.  The vault, not this table, decides:
 * without a ticket a token's private keys do not open.
 */
#ifndef PVD_LOGIN_H
#define PVD_LOGIN_H

#include "gpu/vault.h"

typedef struct pvd_logins pvd_logins;

pvd_logins *pvd_logins_new(void);
void pvd_logins_free(pvd_logins *l);
/* pv_vault_call of r on the backend, with the connection's login state:
 * r's ticket replaced by the stored one for r->token_id (or none), LOGIN's
 * ticket stored instead of answered, LOGOUT answered here. */
int pvd_login_call(pvd_logins *l, pv_vault *backend, pv_req *r);

#endif
