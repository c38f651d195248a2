/* pv_secmem.c - mlocked, non-dumpable, wiped-on-free allocations. */
#include "pv_secmem.h"
#include "pv_log.h"
#include "gpu/core/kc_util.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Header at the start of the mapping; the user block follows it. */
typedef struct secmem_hdr {
	uint64_t magic;
	size_t map_len;     /* whole mapping */
	size_t user_len;
	int locked;
	int pad_;
} secmem_hdr;

#define SECMEM_MAGIC 0x50565345434d454dULL  /* "PVSECMEM" */
#define SECMEM_HDR 64                     /* keeps the user block aligned */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096u;
}

void *pv_secmem_alloc(size_t n)
{
	static int warned;
	size_t pg = page_size(), len;
	uint8_t *m;
	secmem_hdr *h;

	if (n == 0 || n > ((size_t)1 << 30))
		return NULL;
	len = (n + SECMEM_HDR + pg - 1) / pg * pg;
	m = (uint8_t *)mmap(NULL, len, PROT_READ | PROT_WRITE,
	                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
#ifdef MADV_DONTDUMP
	(void)madvise(m, len, MADV_DONTDUMP);
#endif
#ifdef MADV_WIPEONFORK
	(void)madvise(m, len, MADV_WIPEONFORK);
#elif defined(MADV_DONTFORK)
	(void)madvise(m, len, MADV_DONTFORK);
#endif
	h = (secmem_hdr *)m;
	h->magic = SECMEM_MAGIC;
	h->map_len = len;
	h->user_len = n;
	h->locked = mlock(m, len) == 0;
	if (!h->locked && !warned) {
		warned = 1;
		pv_log(PV_LOG_WARN, "secmem: mlock refused (RLIMIT_MEMLOCK?); "
		       "secrets are not-dumpable but may be swapped");
	}
	return m + SECMEM_HDR;
}

void pv_secmem_free(void *p)
{
	uint8_t *m;
	secmem_hdr *h;
	size_t len;

	if (p == NULL)
		return;
	m = (uint8_t *)p - SECMEM_HDR;
	h = (secmem_hdr *)m;
	if (h->magic != SECMEM_MAGIC) {
		pv_log(PV_LOG_ERR, "secmem: free of a block it did not allocate");
		return;
	}
	len = h->map_len;
	kc_wipe(m, len);
	(void)munlock(m, len);
	(void)munmap(m, len);
}

int pv_secmem_locked(const void *p)
{
	const secmem_hdr *h;
	if (p == NULL)
		return 0;
	h = (const secmem_hdr *)((const uint8_t *)p - SECMEM_HDR);
	return h->magic == SECMEM_MAGIC && h->locked;
}
