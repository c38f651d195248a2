/*
 * fuzz_replay.c - replays fuzz corpus files through LLVMFuzzerTestOneInput
 * (gcc builds, no libFuzzer): `fuzz_replay FILE_OR_DIR...`.  Exit 0 if
 * every input ran (a crash fails the test by itself).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, files = 0, bad = 0;
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
	return (bad || files == 0) ? 1 : 0;
}
