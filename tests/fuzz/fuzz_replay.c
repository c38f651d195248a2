/*
 * fuzz_replay.c - runs a fuzz harness's LLVMFuzzerTestOneInput without
 * libFuzzer (gcc builds): `fuzz_replay [--random N] FILE_OR_DIR...`
 * replays every corpus file, then, with --random, N more inputs: each a
 * corpus file with a few bytes changed, inserted or cut, or random bytes
 * (xorshift, seed from PV_FUZZ_SEED or the clock, printed so that a
 * failure can be run again).  Exit 0 if every input ran (a crash or a
 * sanitizer's report fails the test by itself).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FR_MAX_FILES 256
#define FR_MAX_LEN 1024

static uint8_t *fr_data[FR_MAX_FILES];
static size_t fr_len[FR_MAX_FILES];
static int fr_n;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;
	if (f == NULL)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	if (fr_n < FR_MAX_FILES) {            /* kept for the mutations */
		fr_data[fr_n] = buf;
		fr_len[fr_n++] = (size_t)n;
	} else {
		free(buf);
	}
	return 0;
}

static uint64_t fr_s;
static uint32_t fr_rand(void)
{
	fr_s ^= fr_s << 13;
	fr_s ^= fr_s >> 7;
	fr_s ^= fr_s << 17;
	return (uint32_t)(fr_s >> 16);
}

/* One random input into buf: a mutated corpus file, or fresh bytes. */
static size_t fr_make(uint8_t *buf)
{
	size_t len, i, k;

	if (fr_n > 0 && (fr_rand() & 3u) != 0u) {
		const int f = (int)(fr_rand() % (uint32_t)fr_n);
		len = fr_len[f] < FR_MAX_LEN ? fr_len[f] : FR_MAX_LEN;
		memcpy(buf, fr_data[f], len);
		for (k = 1 + fr_rand() % 4u; k > 0; k--) {
			const size_t at = len ? fr_rand() % len : 0;
			switch (fr_rand() % 4u) {
			case 0:                      /* flip bits */
				if (len)
					buf[at] ^= (uint8_t)(1u << (fr_rand() % 8u));
				break;
			case 1:                      /* a new byte */
				if (len)
					buf[at] = (uint8_t)fr_rand();
				break;
			case 2:                      /* insert one */
				if (len < FR_MAX_LEN) {
					memmove(buf + at + 1, buf + at, len - at);
					buf[at] = (uint8_t)fr_rand();
					len++;
				}
				break;
			default:                     /* cut the rest */
				len = at;
				break;
			}
		}
		return len;
	}
	len = fr_rand() % 400u;
	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)fr_rand();
	return len;
}

int main(int argc, char **argv)
{
	static uint8_t buf[FR_MAX_LEN];
	long random = 0, r;
	int i, files = 0, bad = 0;

	if (argc > 2 && strcmp(argv[1], "--random") == 0) {
		random = strtol(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			bad++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			char p[4096];
			while (d && (e = readdir(d)) != NULL) {
				if (e->d_name[0] == '.')
					continue;
				snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
				if (run_file(p) != 0)
					bad++;
				files++;
			}
			if (d)
				closedir(d);
		} else {
			bad += run_file(argv[i]) != 0;
			files++;
		}
	}
	printf("fuzz_replay: %d inputs, %d unreadable\n", files, bad);
	if (random > 0) {
		fr_s = getenv("PV_FUZZ_SEED") ? strtoull(getenv("PV_FUZZ_SEED"), NULL, 0)
		                              : (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
		if (fr_s == 0)
			fr_s = 1;
		printf("fuzz_replay: %ld random inputs, PV_FUZZ_SEED=0x%llx\n", random,
		       (unsigned long long)fr_s);
		fflush(stdout);
		for (r = 0; r < random; r++)
			LLVMFuzzerTestOneInput(buf, fr_make(buf));
		printf("fuzz_replay: %ld random inputs ran\n", random);
	}
	for (i = 0; i < fr_n; i++)
		free(fr_data[i]);
	return (bad || files == 0) ? 1 : 0;
}
