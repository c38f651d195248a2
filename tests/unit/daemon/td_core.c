/* td_core.c - see td_core.h. */
#include "td_core.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/procfs.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIN 16u
#define STEP 8u
#define TBITS 12u
#define MAX_WINS 2048u
#define MAX_THREADS 512u
#define MAX_GROUPS 64

typedef struct win {
	const uint8_t *p;          /* WIN bytes */
	uint32_t secret;
	uint32_t off;              /* window offset in that order */
	int rev;                   /* 1: reversed (little-endian) order */
} win;

typedef struct thr {
	long tid;
	uint64_t sp;
	size_t note_lo, note_hi;   /* file range of this thread's notes */
} thr;

typedef struct group {
	uint32_t secret;
	int rev;
	uint64_t region;
	uint32_t n;
	int allowed;
	char loc[512];
} group;

typedef struct scan {
	win w[MAX_WINS];
	uint32_t nw;
	uint16_t tab[1u << TBITS]; /* window index + 1, linear probing */
	uint8_t *revbuf;
	thr t[MAX_THREADS];
	uint32_t nt;
} scan;

static uint32_t hash64(uint64_t x)
{
	return (uint32_t)((x * 0x9E3779B97F4A7C15ull) >> (64u - TBITS));
}

static void add_windows(scan *sc, uint32_t si, const uint8_t *p, size_t len, int rev)
{
	size_t o;
	for (o = 0; o + WIN <= len && sc->nw < MAX_WINS; o += STEP) {
		uint64_t x;
		uint32_t h;
		memcpy(&x, p + o, 8);
		sc->w[sc->nw] = (win){ p + o, si, (uint32_t)o, rev };
		for (h = hash64(x); sc->tab[h] != 0; h = (h + 1u) & ((1u << TBITS) - 1u))
			;
		sc->tab[h] = (uint16_t)(sc->nw + 1u);
		sc->nw++;
		if (o + WIN < len && o + STEP + WIN > len)
			o = len - WIN - STEP;      /* the last window ends at len */
	}
}

/* Stack pointer of an NT_PRSTATUS descriptor (0 if unknown here). */
static uint64_t prstatus_sp(const struct elf_prstatus *ps)
{
#if defined(__x86_64__)
	return (uint64_t)ps->pr_reg[19];          /* RSP, <sys/reg.h> */
#elif defined(__aarch64__)
	return (uint64_t)ps->pr_reg[31];          /* sp */
#else
	(void)ps;
	return 0;
#endif
}

/* Threads (tid, stack pointer) and the file ranges of their notes. */
static void read_notes(scan *sc, const uint8_t *m, size_t size, const Elf64_Phdr *ph)
{
	size_t o = (size_t)ph->p_offset, end = o + (size_t)ph->p_filesz;

	if (end > size)
		return;
	while (o + sizeof(Elf64_Nhdr) <= end) {
		const Elf64_Nhdr *n = (const Elf64_Nhdr *)(const void *)(m + o);
		size_t desc = o + sizeof *n + ((n->n_namesz + 3u) & ~3u);
		size_t next = desc + ((n->n_descsz + 3u) & ~3u);
		if (next > end)
			break;
		if (n->n_type == NT_PRSTATUS && n->n_descsz >= sizeof(struct elf_prstatus) &&
		    sc->nt < MAX_THREADS) {
			struct elf_prstatus ps;
			memcpy(&ps, m + desc, sizeof ps);
			sc->t[sc->nt].tid = (long)ps.pr_pid;
			sc->t[sc->nt].sp = prstatus_sp(&ps);
			sc->t[sc->nt].note_lo = o;
			sc->nt++;
		}
		if (sc->nt > 0)
			sc->t[sc->nt - 1].note_hi = next;
		o = next;
	}
}

static void thread_name(pid_t pid, long tid, char *out, size_t cap)
{
	char p[64];
	FILE *f;
	snprintf(out, cap, "?");
	snprintf(p, sizeof p, "/proc/%d/task/%ld/comm", (int)pid, tid);
	f = fopen(p, "r");
	if (f == NULL)
		return;
	if (fgets(out, (int)cap, f) != NULL)
		out[strcspn(out, "\n")] = 0;
	fclose(f);
}

/* The smaps entry holding addr: its range, its name, and whether it is
 * left out of dumps (VmFlags "dd": the engine's stacks and secret memory). */
static int maps_find(const char *maps, uint64_t addr, uint64_t *lo, uint64_t *hi,
                     char *name, size_t cap, int *dd)
{
	char line[512];
	FILE *f = fopen(maps, "r");
	int found = 0;

	*dd = 0;
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL) {
		unsigned long long a, b;
		int pos = 0;
		if (found && strncmp(line, "VmFlags:", 8) == 0) {
			*dd = strstr(line, " dd") != NULL;
			break;
		}
		if (found || sscanf(line, "%llx-%llx %*s %*s %*s %*s%n", &a, &b, &pos) < 2 ||
		    pos == 0)
			continue;
		if (addr >= a && addr < b) {
			const char *nm = line + pos;
			while (*nm == ' ')
				nm++;
			snprintf(name, cap, "%s", *nm && *nm != '\n' ? nm : "[anonymous]\n");
			name[strcspn(name, "\n")] = 0;
			*lo = a;
			*hi = b;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Where file offset fo of the core lies: a description, a region id
 * (findings are grouped by it) and whether a finding there is allowed:
 * only in the registers of a thread that was inside the engine when it
 * was stopped (its stack pointer on a stack left out of dumps), which
 * hold the operation's key by necessity. */
static uint64_t where(const scan *sc, const uint8_t *m, const Elf64_Ehdr *eh, size_t fo,
                      const char *maps, pid_t pid, char *out, size_t cap, int *allowed)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(const void *)(m + eh->e_phoff);
	uint32_t i, t;
	char tn[32], name[256];
	uint64_t mlo = 0, mhi = 0;
	int dd;

	*allowed = 0;
	for (i = 0; i < eh->e_phnum; i++) {
		size_t lo = (size_t)ph[i].p_offset, hi = lo + (size_t)ph[i].p_filesz;
		if (fo < lo || fo >= hi)
			continue;
		if (ph[i].p_type == PT_NOTE) {
			for (t = 0; t < sc->nt; t++)
				if (fo >= sc->t[t].note_lo && fo < sc->t[t].note_hi)
					break;
			if (t == sc->nt) {
				snprintf(out, cap, "a note of the core file (not a thread's)");
				return 1;
			}
			thread_name(pid, sc->t[t].tid, tn, sizeof tn);
			if (maps_find(maps, sc->t[t].sp, &mlo, &mhi, name, sizeof name, &dd) && dd) {
				*allowed = 1;
				snprintf(out, cap, "the registers of thread %ld (%s), stopped inside the "
				         "engine (on its stack 0x%llx-0x%llx)", sc->t[t].tid, tn,
				         (unsigned long long)mlo, (unsigned long long)mhi);
			} else {
				snprintf(out, cap, "the registers of thread %ld (%s), stopped outside the "
				         "engine", sc->t[t].tid, tn);
			}
			return 2 + t;
		}
		if (ph[i].p_type == PT_LOAD) {
			uint64_t a = ph[i].p_vaddr + (fo - lo);
			if (!maps_find(maps, a, &mlo, &mhi, name, sizeof name, &dd)) {
				snprintf(out, cap, "0x%llx (no mapping)", (unsigned long long)a);
				return a;
			}
			for (t = 0; t < sc->nt; t++)
				if (sc->t[t].sp >= mlo && sc->t[t].sp < mhi) {
					thread_name(pid, sc->t[t].tid, tn, sizeof tn);
					snprintf(out, cap, "0x%llx in %s 0x%llx-0x%llx: the stack of thread %ld "
					         "(%s), %lld bytes above its stack pointer", (unsigned long long)a,
					         name, (unsigned long long)mlo, (unsigned long long)mhi,
					         sc->t[t].tid, tn, (long long)(a - sc->t[t].sp));
					return mlo;
				}
			snprintf(out, cap, "0x%llx in %s 0x%llx-0x%llx%s", (unsigned long long)a, name,
			         (unsigned long long)mlo, (unsigned long long)mhi,
			         dd ? " (marked not to be dumped)" : "");
			return mlo;
		}
	}
	snprintf(out, cap, "file offset %zu (ELF headers)", fo);
	return 0;
}

long td_core_scan(const char *core, const char *maps, pid_t pid,
                  const td_secret *s, size_t ns)
{
	scan *sc = calloc(1, sizeof *sc);
	struct stat st;
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	uint8_t *m = MAP_FAILED, *rb;
	static group grp[MAX_GROUPS];
	size_t total = 0, i, o, ng = 0;
	long hits = -1;
	int fd = -1;

	if (sc == NULL)
		return -1;
	for (i = 0; i < ns; i++)
		total += s[i].len;
	sc->revbuf = rb = malloc(total ? total : 1);
	if (rb == NULL)
		goto out;
	for (i = 0; i < ns; i++) {
		for (o = 0; o < s[i].len; o++)
			rb[o] = s[i].p[s[i].len - 1 - o];
		add_windows(sc, (uint32_t)i, s[i].p, s[i].len, 0);
		add_windows(sc, (uint32_t)i, rb, s[i].len, 1);
		rb += s[i].len;
	}
	fd = open(core, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(Elf64_Ehdr))
		goto out;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		goto out;
	eh = (const Elf64_Ehdr *)(const void *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_type != ET_CORE ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof *ph > (size_t)st.st_size)
		goto out;
	ph = (const Elf64_Phdr *)(const void *)(m + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_NOTE)
			read_notes(sc, m, (size_t)st.st_size, &ph[i]);
	hits = 0;
	for (o = 0; o + WIN <= (size_t)st.st_size; o++) {
		uint64_t x;
		uint32_t h;
		memcpy(&x, m + o, 8);
		for (h = hash64(x); sc->tab[h] != 0; h = (h + 1u) & ((1u << TBITS) - 1u)) {
			const win *w = &sc->w[sc->tab[h] - 1u];
			char loc[512];
			uint64_t region;
			uint32_t g;
			int allowed;
			if (memcmp(w->p, m + o, WIN) != 0)
				continue;
			region = where(sc, m, eh, o, maps, pid, loc, sizeof loc, &allowed);
			if (!allowed)
				hits++;
			for (g = 0; g < ng; g++)
				if (grp[g].secret == w->secret && grp[g].rev == w->rev &&
				    grp[g].region == region)
					break;
			if (g == ng && ng < MAX_GROUPS) {
				grp[ng] = (group){ w->secret, w->rev, region, 0, allowed, "" };
				snprintf(grp[ng].loc, sizeof grp[ng].loc, "%s", loc);
				ng++;
			}
			if (g < ng)
				grp[g].n++;
		}
	}
	for (i = 0; i < ng; i++)
		printf("    %s%s, %s order: %u windows, the first at %s\n",
		       grp[i].allowed ? "(allowed) " : "", s[grp[i].secret].name,
		       grp[i].rev ? "little-endian" : "big-endian", grp[i].n, grp[i].loc);
out:
	if (m != MAP_FAILED)
		munmap(m, (size_t)st.st_size);
	if (fd >= 0)
		close(fd);
	free(sc->revbuf);
	free(sc);
	return hits;
}
