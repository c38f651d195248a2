#!/usr/bin/env bash
# tests/gpu/device-plan.sh N - the GPU machine's checks as calls of under
# ten minutes each (the device tool's limit per command), so that a
# session's 30 minutes cover everything; docs/gpu-validation.md records
# their results.  Build the bundle here first: tests/gpu/pack-device.
# Device tool: carry ["build-devpack"], command `bash tests/gpu/device-plan.sh N`.
#
#   1  gpu_kat, gpu_ring, gpu_bench (kernel-only rates, lone-request latency
#      with its split by stage)
#   2  unit suites through PKCS#11, e2e clients, multi-process load
#      (embedded first: no pvaultd may hold the GPU when it boots)
#   3  60-second stress of 64 threads, p11bench thread sweep vs OpenSSL
#   12 gpu_ring, the lone-request latency, then 2 (when 1 ran before)
#   4  gpu_ring, every engine/PKCS#11 KAT, Wycheproof and OpenSSL-oracle
#      suite, the client e2e flows the device can run, and the p11bench
#      rows after sm2-sign (3 stopped there)
#   5  what 4 did not reach: the rest of the PKCS#11 suites, the e2e clients
#   6  p11pk_wycheproof alone (it needs minutes on the GPU), 30 s load runs
#   7  RSA on a whole warp: the public-key suites through the CUDA backend,
#      the kernel-only public-key rates, p11bench RSA / P-256 to 256 threads
#   8  7 with the CRT halves on two warps, and p11bench to 1024 threads
#      with gpu_slots = 1024
#   10 one call for a commit that changed the kernel: gpu_ring, the KAT /
#      Wycheproof / oracle suites, the e2e clients, p11bench of every
#      mechanism to 512 threads (gpu_slots = 1024)
#   11 (short) the RSA/PKCS#11 suites, token-basic,
#      signatures through the ring without PKCS#11 (gpu_bench sig),
#      p11bench RSA / P-256 / SHA3 at 1, 128, 512 threads
#   15 where a signature's time goes under load (PIXELVAULT_RING_STATS):
#      p11bench RSA / Ed25519 / P-256 at 128 and 512 threads, one process
#      each, and gpu_bench sig; then the same with the bundle of branch
#      wip/claim-any-ready (build-devpack/bundle-claim.tar.xz) and its
#      gpu_ring and public-key suites
#   16 gpu_ring (the fault check), engine_pk, p11pk, then PIXELVAULT_RING_STATS p11bench
#      processes: RSA / P-256 / Ed25519 / SHA3-256 4 KiB at 1, 128, 512
#      and 1024 threads (gpu_slots = 2048), and gpu_bench sig
#   17 A/B of how many waiters poll a GPU slot: this bundle (PV_MAX_POLLING,
#      half the CPUs) against build-devpack/bundle-b.tar.xz (the variant
#      to compare): p11bench SHA3-256 4 KiB, RSA, Ed25519 at 512 and 1024
#      threads with PIXELVAULT_RING_STATS
#   18 a kernel change to the public-key paths: gpu_kat, the public-key
#      and blob suites, gpu_bench sig (lone RSA / P-256 by stage),
#      p11bench RSA / P-256 / SM2 at 1 and 1024 threads with ring stats
#   19 the release measurement: gpu_ring, the 60 s stress of 64 threads,
#      gpu_bench sig and pcie, the p11bench sweep of every mechanism at 1, 16, 128,
#      512, 1024 threads (gpu_slots = 2048) with OpenSSL on 1 and 16 cores
#   21 A/B/C: A this bundle, B this bundle with build-devpack/module-b.so
#      (a host-side change: the module alone), C build-devpack/bundle-c.tar.xz
#      (a kernel change): gpu_bench sig (lone RSA / P-256 split by the
#      KC_PROF marks) and p11bench P-256 / RSA / SHA3-256 4 KiB at 1 and
#      1024 threads with ring stats (OpenSSL on 16 threads in A); C also
#      runs gpu_kat, engine_pk and p11pk
#   22 one call for a commit that changed the kernel in several places:
#      gpu_kat, gpu_ring, the engine / PKCS#11 KAT, Wycheproof and oracle
#      suites (not p11pk_wycheproof: plan 6), e2e token-basic, gpu_bench
#      sig and pcie, p11bench P-256 / SM2 / RSA / SHA3 / SM3 / GCM-1M at 1
#      and 1024 threads with ring stats (OpenSSL: plan 19)
#   23 A/B of a kernel change: B = build-devpack/bundle-b.tar.xz first
#      (gpu_kat, gpu_ring, the engine / PKCS#11 public-key, blob and
#      oracle suites, gpu_bench sig, p11bench P-256 / SM2 / RSA /
#      GCM-1M at 1 and 1024 threads with ring stats), then A = this
#      bundle (gpu_bench sig and the same p11bench rows)
#   24 a kernel change to the symmetric paths: gpu_kat, gpu_ring, the
#      engine / PKCS#11 oracle, Wycheproof, blob and public-key suites,
#      the 60 s stress of 64 threads, gpu_bench pcie (cudaMemcpy and
#      zero-copy loads / stores), p11bench GCM-1M at 1, 16, 128, 512,
#      1024 threads with ring stats and OpenSSL on 1 and 16 cores
#   25 where a P-256 signature's time goes under load: gpu_kat, gpu_bench
#      ecload (kernel-only, the vault's warp shape, 1 to 16 signatures
#      per multiprocessor, default carveout and the most L1) with Nsight
#      Compute on 1 and 8 per multiprocessor, gpu_bench sig (the split at
#      128, 528 and 1,024 in flight), then the engine / PKCS#11 oracle,
#      Wycheproof and blob suites in what time is left
#   28 gpu_kat, then ecprof: gpu_bench ecload and veload (the signing
#      core alone and through ve_execute, 1 to 16 per multiprocessor) with
#      Nsight Compute on both at 1 and 8 per multiprocessor
#   29 ecprof with the blocks of veload starting at staggered times (up
#      to 700 and 1,500 us: stages mixed on a multiprocessor, as in the
#      vault), Nsight Compute on veload at 8 per multiprocessor staggered
#   30 gpu_bench sig (P-256 also at 1,024 threads with one request each,
#      split by stage) and p11bench P-256 at 1,024 threads with ring stats,
#      nvidia-smi's clocks, power and throttle reasons every 100 ms
#   31 a merge's check: gpu_kat, gpu_ring, the engine / PKCS#11 blob,
#      open, public-key, oracle and Wycheproof suites, e2e token-basic, the
#      60 s stress of 64 threads, then p11bench P-256 / SM2 at 1,024
#      threads with the default blocks per SM and with gpu_blocks_per_sm 4
#   32 A/B of a kernel change: p11bench P-256 / SM2 at 1,024 threads with
#      A = this bundle and B = build-devpack/bundle-b.tar.xz, then plan 31
#      on B when its P-256 row is 3 % higher or more, else on A
#   33 A/B of a change to the ring's memory ordering: p11bench P-256 / SM2
#      at 1,024 threads with A = this bundle and B = bundle-b.tar.xz, the
#      vault kernel's CCTL / MEMBAR counts in each (cuobjdump), then on B
#      gpu_ring, the public-key and oracle suites and a 30 s stress
#   34 what the persistent kernel adds to a P-256 signature: gpu_bench
#      veload at 4 and 8 per SM with staggered starts, alone and with each
#      of the ring's per-request steps (inputs from host memory, outputs
#      back with __threadfence_system and system-scope stores, the wipe,
#      four requests per block), then Nsight Compute with all of them
#   35 which code a P-256 signature runs under mixed load: Nsight Compute's
#      per-instruction executed counts (SourceCounters, CSV) on veload at
#      8 per SM, staggered, four requests per block
#   36 A/B of a kernel change (B = build-devpack/bundle-b.tar.xz): veload
#      at 8 per SM (lock-step and mixed), p11bench P-256 / SM2 at 1 and
#      1,024 threads, then B's gpu_kat, the blob / public-key / oracle
#      suites and the lone-request latency
#   37 p11pk twice on this bundle and on build-devpack/bundle-c.tar.xz, C's
#      veload at 8 per SM with and without a grid barrier before each
#      request (work 24 = VL_REPS | VL_SYNC), p11bench P-256 / SM2 at 1
#      and 1,024 threads on both
#   38 A/B of a kernel change (B = build-devpack/bundle-b.tar.xz): p11bench
#      P-256 / SM2 / RSA-2048 at 1, 128 and 1,024 threads, then
#      B's gpu_kat, gpu_ring, the blob / public-key / oracle suites, 30 s
#      of the 64-thread stress and the lone-request latency
#   39 the 64-thread stress (every mechanism, 30 s) on this bundle and on
#      build-devpack/bundle-b.tar.xz, then B's P-256 / SM2 / RSA-2048 at
#      1,024 threads with OpenSSL on 16 threads, and this bundle's RSA
#   41 this bundle's gpu_kat and p11pk, then A/B (B =
#      build-devpack/bundle-b.tar.xz) p11bench RSA-2048 / P-256 / SM2 at 1
#      and 1,024 threads, then B's gpu_ring, engine_pk, p11pk and 30 s of
#      the 64-thread stress
#   42 a merge's checks: gpu_kat, gpu_ring, the engine / PKCS#11 blob,
#      open, public-key, oracle, Wycheproof and bad-input suites, e2e
#      token-basic / symmetric / pubkey, gpu_bench sig (the lone split from
#      the profile rows); then where the host's time goes for hashes:
#      p11bench SM3 / SHA3-256 4 KiB at 128 and 1,024 threads and P-256 at
#      1,024 with the threads' CPU by name (PV_BENCH_TOP)
#   43 what 42 and 19 leave out of a release's checks: the public-key
#      Wycheproof suites (engine, PKCS#11), p11_nothreads, pk_general,
#      pk_session, p11pk_keyref, and the e2e clients openssl, ssh-login
#      (embedded and pvaultd), nss, gnutls, daemon, provision
#   44 p11_nothreads, p11_bad, engine_blob, then a lone P-256 signature
#      under Nsight Compute (veload with one block: sections, then every
#      SASS instruction's executed count and stall samples as CSV)
#   45 a kernel change to RSA's arithmetic: plan 18 with gpu_ring (the
#      fault check), then the vault kernel's SASS (cuobjdump, $OUT/sass.txt.gz;
#      a function's addresses are its FUNC symbol's range in the cubin, as
#      tests/gpu/ncu-by-function.py reads them)
#   46 a quick look at a change to RSA's arithmetic: gpu_kat, gpu_ring,
#      gpu_bench sig (the lone split), p11bench RSA-2048 at 1 and 1,024
#      threads, the SASS as in 45
#   47 a lone RSA signature taken apart: gpu_bench mm (the warp product and
#      a CRT half's exponentiation, cycles), plan 45, then veload with
#      RSA-2048 (one block, no ring) under Nsight Compute (sections, and
#      every SASS instruction's executed count and stall samples as CSV:
#      tests/gpu/ncu-by-function.py sums them by function)
#   48 after 47, the rest of an RSA change's checks in one short call:
#      p11pk_wycheproof, e2e pubkey and openssl, the 60 s stress of 64
#      threads, p11bench RSA-2048 at 1 and 1,024 threads with OpenSSL on 1
#      and 16 threads
#   49 a lone RSA signature by function: veload with RSA-2048 (one block,
#      no ring) and gpu_bench mm's exponentiation alone (k_mm_exp), each
#      under Nsight Compute with every SASS instruction's executed count
#      and stall samples as CSV ($OUT/ncusrc-ve-1.csv.xz,
#      $OUT/ncusrc-mm.csv.xz; tests/gpu/ncu-by-function.py)
#   50 49's veload with four RSA-2048 signatures in the block (VL_REPS) as
#      well ($OUT/ncusrc-ve-1x4.csv.xz): the launch also boots the block,
#      so one signature is a third of the difference from 49's
#   51 where a lone request's time goes beside its code (a bundle with
#      PVC_PROF_CLK_*, branch wip/prof-clock): gpu_bench mm and sig (the
#      multiprocessor's clock while a lone RSA / P-256 request executed),
#      then p11bench RSA-2048 and P-256 at 1 thread with the vault's 8
#      blocks per multiprocessor and with 1 (fewer idle pollers beside it)
#   53 a change to RSA's arithmetic (B = build-devpack/bundle-b.tar.xz)
#      against main (A): gpu_bench mm on B, then on B gpu_kat, gpu_ring,
#      engine_pk, engine_pk_wycheproof, pk_general, p11pk, gpu_bench sig
#      (a lone RSA signature's stages) and p11bench RSA-2048 / P-256 at 1
#      and 1,024 threads; then RSA-2048 on A the same (run 102: the
#      separated product of 585987f)
#   54 lone RSA-2048 / P-256 (p11bench, 1 thread) with 8 and with 1
#      vault block per multiprocessor, only (bps_rows)
#   55 an EC or idle-work change (B = build-devpack/bundle-b.tar.xz)
#      against main (A): gpu_kat and gpu_ring on B, then p11bench P-256
#      and SM2 at 1, 16 and 1,024 threads on A, B, A, B
#   56 the rest of an EC change's checks on $B: engine_pk,
#      engine_pk_wycheproof, pk_general, p11pk, engine_oracle, p11_oracle,
#      e2e pubkey and openssl, and the 60 s stress of 64 threads over
#      every mechanism
#   57 55 with B = $AB_B, then lone SM2 on B for 6 s (more of the blocks
#      hold an SM2 nonce by then)
#   58 a short look at an SM2 change (B = $AB_B) against A: gpu_kat and
#      gpu_ring on B, p11bench SM2 and P-256 at 1 and 1,024 threads on A
#      and B, then p11stress on B (64 threads, 30 s, every mechanism checked)
#   59 a change to the producer's large copies (B = $AB_B, main before
#      it) against this bundle (A): gpu_bench pcie (the host rows with
#      pv_bulk_copy / pv_bulk_wipe), p11bench GCM 1 MiB at 16, 128, 512
#      and 1,024 threads on A, B, A, B, then on A the engine / PKCS#11
#      oracle and Wycheproof suites, engine_arena and e2e symmetric
#   60 with 59 and 19, every suite of plans 42, 43 and 45 and every e2e
#      flow: the public-key, blob, open, bad-input, thread-less and
#      key-reference suites, p11_oracle, then p11pk_wycheproof (minutes),
#      and the e2e flows but symmetric
#   61 an EC engine change (B = $AB_B) against this bundle (A): gpu_kat
#      and gpu_ring on B, p11bench P-256 and SM2 at 1 and 1,024 threads on
#      A, B, A, B, then p11stress on B (64 threads, 30 s, every mechanism)
#   62 a host-side change to the module (the ring's wake path) against
#      the modules of one or two earlier commits (B = $AB_B, C = $AB_C if
#      set: a pixelvault-pkcs11.so each, swapped into this bundle, so
#      p11bench is the same program for all): gpu_ring and engine_arena on
#      this bundle (A), then p11bench SHA3-256 4 KiB, SM3 4 KiB and P-256
#      (AB_MECH) at 512 and 1,024 threads (AB_THREADS) with the host's CPU
#      per operation, on A, B(, C), AB_ROUNDS times (2); AB_UNITS names
#      other unit suites for A's checks, AB_OSSL=1 adds A's rows once more
#      with OpenSSL on 16 threads at the end
#   64 a host-side change to the token or the module: the PKCS#11 suites
#      (pk_general's fork, p11_bad, p11_nothreads, pk_session, p11_oracle,
#      p11pk), e2e token-basic, symmetric, daemon, ssh-login-daemon and
#      nss, the multi-process load, the 60 s stress of 64 threads, then
#      p11bench SHA3-256 / SM3 4 KiB at 1,024 threads with OpenSSL on 16
#   65 64 in a short call: p11pk, p11_oracle, pk_general, p11_bad, p11_close, e2e
#      token-basic and daemon, 30 s of the 64-thread stress
#   68 the checks of a change to the token's locking, in under 5 minutes:
#      p11pk, p11_close, p11_bad, pk_general (its fork), pk_session,
#      p11_nothreads (not p11_oracle: 130 s on the GPU), e2e token-basic,
#      symmetric, daemon and nss, 30 s of the 64-thread stress; then 62
#      for the rates
#   63 the rest of a wake-path change's checks: the 60 s stress of 64
#      threads, e2e token-basic, symmetric, daemon, ssh-login-daemon
#      (pvaultd: shared futexes on the clients' rings, private ones on its
#      own), the multi-process load (embedded and pvaultd), then p11bench
#      SHA3-256 and SM3 4 KiB, GCM 16 KiB and P-256 at 1, 16, 128, 512 and
#      1,024 threads (the host's CPU per operation as the load grows)
#   66 a change to a lone RSA request's path (this bundle, A) against the
#      module before it (B = $AB_B, swapped in as in 62): gpu_bench mm (the
#      product and exponentiation alone; AB_MM=0 skips it), gpu_kat,
#      gpu_ring, engine_pk, engine_pk_wycheproof, pk_general,
#      p11pk, the 64-thread stress for AB_STRESS seconds (30), gpu_bench
#      sig (lone RSA by stage), then p11bench RSA-2048 at 1, 16 and 1,024
#      threads on A and B
#   67 a change to the core's hashes (this bundle, A) against the module
#      before it (B = $AB_B, swapped in as in 62): gpu_kat, gpu_ring, the
#      engine / PKCS#11 oracle, Wycheproof and blob suites, e2e
#      token-basic, 30 s of the 64-thread stress, then p11bench SHA-256
#      and SM3 4 KiB at 1 and 1,024 threads (AB_THREADS; a digest's execute
#      time on the GPU, and the rate) on A, B, A, B (ab_swap; without
#      AB_B, no A/B)
#   69 the release measurement with the kernel-only rates, and an A/B of
#      the key-blob path: gpu_kat, gpu_ring, the blob / open / public-key /
#      oracle suites, the 60 s stress of 64 threads, gpu_bench's default
#      run (kernel-only rates of every benchmarked primitive, the ring's,
#      PCIe), sig and keygen (RSA key generation on the warp, each key
#      the host's), the p11bench sweep of plan 19; then p11bench P-256
#      and SM2 (AB_MECH) at 1 and 1,024 threads (AB_THREADS, AB_LIMIT s a
#      row) on A, B (= $AB_B, a module swapped in as in 62), A, B; without
#      AB_B, no A/B.  PV_EXTRA_UNITS: more suites (PV_UNIT_LIMIT s in all);
#      PLAN_GPU_BENCH: gpu_bench's modes instead of all,sig,keygen
#   71 where the longest stress times come from: the 64-thread stress for
#      30 s over every op, then 30 s without RSA key generation
#      (p11stress --exclude CKM_RSA_PKCS_KEY_PAIR_GEN), each op's mean and
#      longest time
#   72 a change to the ring's protocol (ring version 2, ticket entries
#      apart from the slots): gpu_kat, gpu_ring, the blob / public-key /
#      bad-input / thread-less / fork / session suites, e2e token-basic,
#      daemon and ssh-login-daemon, the multi-process load (embedded and
#      pvaultd), plan 71's two stresses, then p11bench P-256, SHA3-256 4
#      KiB and RSA-2048 at 1 and 1,024 threads on A, B, A, B (ab_swap;
#      B = $AB_B, the module before the change)
#   73 RSA key generation on the warp: gpu_kat, gpu_bench keygen (fixed
#      seeds: 3 of 2,048 bits on the warp and on one thread, 3,072 and
#      4,096 on the warp, each key compared with the host's), the
#      public-key and oracle suites (engine_pk, p11pk, pk_general,
#      p11_oracle), e2e token-basic and pubkey, the 60 s stress of 64
#      threads with each op's mean and longest time
#   74 the producers' slot search (pv_slots.h): gpu_ring, then gpu_bench's
#      default run (kernel-only and through-the-ring rows) on A, B, A, B
#      with B = build-devpack/gpu_bench-b (the program before the change)
#   75 what plan 60 runs and runs 152-154 did not, in one call: e2e
#      openssl, ssh-login, nss, gnutls, provision, then the Wycheproof
#      suites (engine_pk_wycheproof, p11pk_wycheproof) and p11pk_keyref,
#      engine_open, p11_bad, pk_session
#   76 the copy engine for large inputs (pv_cuda_stage, ve_ring.h
#      staged_len / out_at): gpu_kat, gpu_ring, then with every request
#      staged (PIXELVAULT_CUDA_STAGE_MIN=1) the Wycheproof, master-key,
#      bad-input and public-key PKCS#11 suites, e2e symmetric and
#      token-basic; gpu_bench pcie (the link); p11bench GCM 1 MiB
#      at 1, 128, 512, 1,024 threads with the default (256 KiB)
#      and with no staging (=0), A, B, A, B
#   77 the rest of 76's checks with every request staged: p11_oracle,
#      engine_oracle, p11_close, p11_nothreads, the 30 s stress of 64
#      threads, e2e daemon
#   78 gpu_ring, gpu_bench pcie (with the malloc'd-memory rows: can a
#      kernel use a caller's pageable buffer here?) and the driver's
#      addressing mode (nvidia-smi -q)
#   79 with every request staged (PIXELVAULT_CUDA_STAGE_MIN=1): what
#      runs 157-159 did not run on 92804ba's kernel - e2e openssl,
#      ssh-login, ssh-login-daemon, nss, gnutls, provision, pubkey, then
#      engine_wycheproof, engine_pk_wycheproof, p11pk_wycheproof,
#      p11pk_keyref, pk_session
#   80 with every request staged: the multi-process load (embedded and
#      pvaultd, 8 s each) and p11_fuzz_tmpl (20,000 fuzzed templates)
#   81 how to stage (AB_B: a module built from another branch - wip/stage-async,
#      the kernel waits for the copy; wip/stage-poll, the host polls its
#      event; AB_C optional, a third): gpu_ring on each, then A, B(, C), A,
#      B(, C) after gpu_bench stagecalls (the copy engine's round trips
#      from 1-64 threads, waited for three ways, without the token):
#      the embedded load with every request staged (5 s) and
#      p11bench GCM 1 MiB at 128 and 1,024 threads (default staging);
#      then B's (and C's) checks with every request staged: p11_wycheproof,
#      p11_bad, p11pk, p11_master, e2e symmetric
#   82 PKCS#11 3.2 async sessions on the CUDA backend: gpu_ring,
#      p11_async, p11_close, p11_nothreads; p11bench SHA3-256 / SM3 4 KiB
#      with 64 and 256 async sessions per thread on 1, 4, 8, 16 threads
#      (OpenSSL on 16 in the same call), then the same without async at
#      1,024 threads
#   83 async sessions with their public-key calls: gpu_ring, p11_async,
#      p11pk, p11_close, p11_wycheproof, e2e token-basic and openssl; then
#      p11bench of every mechanism whose calls pend with 64 async sessions
#      per thread on 8 and 16 threads (OpenSSL on 16 in the same call),
#      and the same mechanisms in plain sessions at 1,024 threads
#   84 GCM 1 MiB from async sessions: gpu_bench pcie (the link, same
#      call), p11bench aes256gcm-1m with 4 and 16 async sessions per
#      thread on 8 and 16 threads, and plain sessions at 1,024 threads
#   85 A/B of a module (AB_B; AB_C optional, a third) on digests from
#      async sessions: gpu_ring, then A, B(, C), A, B(, C): p11bench
#      SHA3-256 / SM3 4 KiB with 64 async sessions on 8 threads; then
#      p11_async on B (and C)
#   86 A/B of a module that changes the kernel's claims (AB_B): gpu_ring,
#      then A, B, A, B: p11bench SHA3-256 64 B / 4 KiB and SM3 4 KiB with
#      64 async sessions on 8 threads, P-256 lone and at 1,024 threads;
#      then B's checks: p11_async, p11_close, p11pk, p11_wycheproof and a
#      20 s stress of 64 threads
#   87 a change to the kernel's claims: gpu_kat, gpu_ring, p11_async,
#      p11_close, p11pk, p11_wycheproof, p11_bad, engine_oracle, e2e
#      token-basic, openssl and daemon, a 30 s stress of 64 threads, then
#      p11bench SHA3-256 64 B / 4 KiB and SM3 4 KiB with 64 async sessions
#      on 8 threads (OpenSSL on 16), P-256 and RSA-2048 lone and P-256 at
#      1,024 threads
#   88 the e2e clients the device can run (token-basic, openssl, daemon,
#      symmetric, pubkey) and gpu_ring
#   89 where an async digest's time goes: gpu_ring, then one p11bench
#      process per row with ring stats (queue / execute / notify) and
#      top -H: SHA3-256 4 KiB and 64 B, SM3 4 KiB, async sessions
#      (threads x sessions each) 8 x 64, 4 x 128, 12 x 64, 8 x 32
#   90 A/B of a host-side module (AB_B) on the ring's wakes: gpu_ring, then
#      A, B, A, B: async SHA3-256 4 KiB and 64 B on 8 x 64 sessions and 4 KiB
#      on 12 x 64 (ring stats and the async split per row), plain
#      SHA3-256 4 KiB at 1,024 threads and P-256 lone; then B's p11_async,
#      p11_close, p11pk and a 20 s stress of 64 threads
#   91 the release measurement of a host-side change (the kernel's own
#      rates unchanged since the last plan 69): gpu_ring, p11_async, p11pk,
#      p11_close, the async rows (64 sessions a thread on 8 and 12
#      threads, OpenSSL on 16 in the same call) of the mechanisms whose
#      calls pend (files *-async.*); then the 60 s stress of 64 threads
#      and the p11bench sweep of plan 69 (files *-release.*)
#   93 the suites of a token-layer change and every e2e client flow the
#      device runs (plan 60's, plus symmetric): gpu_ring, e2e token-basic,
#      symmetric, pubkey, openssl, ssh-login, ssh-login-daemon, nss,
#      gnutls, daemon, provision; p11_vsig, p11_async, p11_bad,
#      p11_nothreads, pk_general, pk_session, p11pk_keyref
#   94 A/B of a kernel change's module (AB_B) on the signatures: gpu_ring,
#      then p11bench RSA-2048 and P-256 at 1 and 1,024 threads on A, B, A,
#      B (AB_LIMIT s a row; with AB_C a third module, A, B, C, A, B, C),
#      then B's p11pk, pk_general and p11_vsig and a
#      20 s stress of 64 threads on B
#   95 a kernel change on the bundle itself, then its A/B against the
#      module AB_B: gpu_kat, gpu_ring, engine_pk, engine_oracle, p11pk,
#      pk_general, p11_vsig, a 20 s stress of 64 threads, gpu_bench mm
#      and sig (PLAN_GPU_BENCH), then p11bench RSA-2048 and P-256 at 1 and
#      1,024 threads on A, B, A, B (AB_LIMIT s a row)
#   96 the async digests against OpenSSL in the same process: gpu_kat and
#      gpu_burn, then SHA3-256 / SM3 4 KiB from 64 async sessions on each
#      of AB_THREADS (8,12,16) threads, one process a row with OpenSSL on
#      16 cores and the async split; with AB_B (and AB_C) the same rows
#      on those modules without OpenSSL, then A again
#   97 where the host's time goes in async digests: gpu_ring, then perf
#      (Debian 12's, with its libraries: tests/gpu/pack-perf makes
#      build-perf/perf.tar.xz; carry
#      build-perf too) over 1.5 s of SHA3-256 4 KiB from 64 async sessions
#      on 12 threads, by symbol, on A and on AB_B; then A/B(/C) rows of
#      AB_MECH at AB_THREADS (8,12,16) x 64 async sessions, A, B, C, A, B,
#      C; then B's p11_async, p11_close, p11pk
#   98 a host-side module (AB_B) in the bundle's place: SHA3-256 / SM3 4 KiB
#      from 64 async sessions on 8, 12, 16 threads with OpenSSL on 16 cores
#      in each row's process; RSA-2048 / P-256 in plain sessions at 1 and
#      1,024 threads on B, then on A; a 30 s stress of
#      64 threads on B
#   99 the bundle's host side against an older module (AB_B): gpu_ring,
#      SHA3-256 / SM3 4 KiB from 64 async sessions on 8, 12, 16 threads,
#      A (with OpenSSL on 16 cores in the row's process), B, A, B; then the
#      CPU backend (PIXELVAULT_BACKEND=cpu) on the host's cores: SHA3-256
#      4 KiB and P-256 in plain sessions at 16 and 64 threads, A, B, A, B;
#      then a 30 s stress of 64 threads on A
#   100 a change to the host's core (gpu/core/cpu) in module AB_B: the CPU
#      backend (PIXELVAULT_BACKEND=cpu) on the host's cores, plain
#      sessions at 1 and 16 threads: RSA-2048, P-256, SHA-256 4 KiB,
#      AES-256-GCM 1 MiB, A (with OpenSSL on 1 and 16 threads), B, A, B;
#      then B through the CUDA backend (the same rows at 1 and 1,024
#      threads) and a 30 s stress of 64 threads on B
#   101 AES-256-GCM 1 MiB through the CUDA backend with module AB_B against
#      the bundle's (A): gpu_ring, gpu_bench pcie (the link), then
#      p11bench in plain sessions at 512 and 1,024 threads, A, B, A, B
#   102 a change to the host's core in the bundle itself (A), against an
#      older module (AB_B): gpu_ring, then the CPU backend on the host's
#      cores, plain sessions at 1 and 16 threads: P-256, SM2, SHA3-256
#      4 KiB, RSA-2048, A (with OpenSSL on 1 and 16 threads), B, A, B;
#      then A through the CUDA backend (the same rows but RSA at 1 and
#      1,024 threads) and a 30 s stress of 64 threads on A
# PV_BUNDLE names another bundle than build-devpack/bundle.tar.xz.
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/../.."
B=${PV_BUNDLE:-build-devpack/bundle.tar.xz}
# p11bench P-256 / SM2 at 1,024 threads with ring stats on A = $B and
# B = build-devpack/bundle-b.tar.xz ($OUT/summary-ab-{a,b}.txt); $1, if
# given, runs after each with x = a or b and that bundle still unpacked
# ab_bench [HOOK]: p11bench on A ($B) then B (AB_B), in a subshell so that
# its settings do not reach what the plan runs after it
ab_bench() (
  export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=${AB_MECH:-p256-sign,sm2-sign} \
    PV_BENCH_THREADS=${AB_THREADS:-1024} PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=${AB_LIMIT:-30}
  for x in a b; do
    local bb=$B
    [ $x = b ] && bb=${AB_B:-build-devpack/bundle-b.tar.xz}
    timeout $(( ${AB_LIMIT:-30} + 35 )) bash tests/gpu/run-device --bundle "$bb" --phases bench > /dev/null 2>&1
    mv "$OUT/summary.txt" "$OUT/summary-ab-$x.txt"
    [ -n "${1:-}" ] && "$1"
  done
)
# async_rows MECH THREADS OSSL: p11bench MECH from 64 async sessions on
# each of THREADS threads, one process a row (ASYNC_SECS s, 3 by default)
# with OpenSSL on OSSL threads (none: no rows), on the module in
# /tmp/pv-bundle; prints the rows and each row's async split
# ($OUT/summary.txt and logs.tgz stay for the caller)
async_rows() {
  (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=${ASYNC_SECS:-3} \
     PV_P11BENCH_LIMIT=40 PV_BENCH_MECH=$1 PV_BENCH_ASYNC=64 PV_BENCH_THREADS=$2 PV_BENCH_OSSL=$3
   timeout 280 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
  grep -h '^| [a-z]\|async split' "$OUT/summary.txt" | grep -v mechanism
}
# plain_rows MECH THREADS [OSSL]: p11bench MECH in plain sessions at THREADS
# (2 s a row; OpenSSL at the thread counts OSSL, default none) on the
# module in /tmp/pv-bundle; prints the rows
plain_rows() {
  (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=60 \
     PV_BENCH_MECH=$1 PV_BENCH_THREADS=$2 PV_BENCH_OSSL=${3:-none}
   timeout 220 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
  grep -h '^| [a-z]' "$OUT/summary.txt" | grep -v mechanism
  rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
}
# stress30 LABEL: a 30 s stress of 64 threads on the module in
# /tmp/pv-bundle; prints its line after "== LABEL stress"
stress30() {
  (export PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=70 PV_GPU_BENCH=0 PV_P11BENCH=0
   timeout 90 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases stress > /dev/null 2>&1)
  echo "== $1 stress"; grep -h 'rc=\|wrong' "$OUT/summary.txt" | head -3
}
# ab_swap MECH THREADS LIMIT: p11bench MECH at THREADS with this bundle's
# module (A) and $AB_B's swapped in (B), A, B, A, B (the bundle must be
# unpacked in /tmp/pv-bundle by an earlier run-device); the token and
# execute rows into $OUT/summary-ab.txt.  Without AB_B, a line says so.
# stress_keygen_pair: the 64-thread stress for 30 s over every op, then
# without RSA key generation ($OUT/summary-{all,no-rsa-keygen}.txt, logs
# likewise); prints each run's line and its six longest ops
stress_keygen_pair() {
  local x
  for x in all no-rsa-keygen; do
    (export PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=80
     [ $x = no-rsa-keygen ] && export PV_STRESS_ARGS="--exclude CKM_RSA_PKCS_KEY_PAIR_GEN"
     timeout 100 bash tests/gpu/run-device --bundle "$B" --phases stress > /dev/null 2>&1)
    mv "$OUT/summary.txt" "$OUT/summary-$x.txt"; mv "$OUT/logs.tgz" "$OUT/logs-$x.tgz" 2>/dev/null
    echo "== stress $x"; head -2 "$OUT/summary-$x.txt"
    tar -xzOf "$OUT/logs-$x.tgz" --wildcards '*stress.log' | sed -n '/^mechanism/,$p' | sort -k6 -n -r | head -6
  done
}

# PV_MODULE: the module of the bundle unpacked in /tmp/pv-bundle, where
# the A/B plans swap modules in.  ab_ring: gpu_ring on $B (which unpacks
# it there), its line printed, and the bundle's module kept as A.
# ab_use X: module A (X = a*), B = $AB_B (b*) or C = $AB_C (c*) in place.
PV_MODULE=/tmp/pv-bundle/build-dev/pkcs11/pixelvault-pkcs11.so
ab_ring() {
  (export PV_RING_LIMIT=45 PV_GPU_BENCH=0 PV_P11BENCH=0
   timeout 80 bash tests/gpu/run-device --bundle "$B" --phases ring > /dev/null 2>&1)
  grep -h 'rc=' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
  cp "$PV_MODULE" /tmp/pv-module-a.so
}
ab_use() {
  case $1 in
    a*) cp /tmp/pv-module-a.so "$PV_MODULE" ;;
    b*) cp "$AB_B" "$PV_MODULE" ;;
    c*) cp "$AB_C" "$PV_MODULE" ;;
  esac
}
# b_suites NAMES LIMIT: module B's suites NAMES (LIMIT s) and a 20 s
# stress of 64 threads, then module A back in place
b_suites() {
  ab_use b
  (export PV_UNIT_SUITES="" PV_UNIT_NAMES="$1" PV_UNIT_LIMIT=$2 \
     PV_STRESS_SECS=20 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=60
   timeout $(( $2 + 90 )) bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases unit,stress > /dev/null 2>&1)
  echo "== B checks"; grep -v '^CKM_\|^C_' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
  ab_use a
}
ab_swap() {
  local x
  if [ -z "${AB_B:-}" ] || [ ! -f "$AB_B" ]; then
    echo "== no AB_B: A/B skipped" > "$OUT/summary-ab.txt"; return
  fi
  cp "$PV_MODULE" /tmp/pv-module-a.so
  : > "$OUT/summary-ab.txt"
  for x in a1 b1 ${AB_C:+c1} a2 b2 ${AB_C:+c2}; do
    ab_use $x
    (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=$1 \
       PV_BENCH_THREADS=$2 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=$3
     timeout $(( $3 + 35 )) bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
    { echo "== $x"; grep -h '| token\|execute' "$OUT/summary.txt"; } >> "$OUT/summary-ab.txt"
    rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/p11bench.csv" "$OUT/logs.tgz"
  done
  ab_use a
}
# b_checks: gpu_kat and gpu_ring on B = AB_B ($OUT/summary-b-checks.txt)
b_checks() (
  export PV_KAT_LIMIT=40 PV_RING_LIMIT=40 PV_GPU_BENCH=0 PV_P11BENCH=0
  timeout 100 bash tests/gpu/run-device --bundle "${AB_B:-build-devpack/bundle-b.tar.xz}" \
    --phases kat,ring > /dev/null 2>&1
  mv "$OUT/summary.txt" "$OUT/summary-b-checks.txt"
)
# bps_rows: p11bench RSA-2048 and P-256 at 1 thread on $B with 8 and with 1
# vault block per multiprocessor ($OUT/summary-bps{8,1}.txt); bps_rows
# print: their token rows
bps_rows() {
  local bps
  for bps in 8 1; do
    if [ "${1:-}" = print ]; then
      echo "== $bps blocks per multiprocessor"; grep -h '| token' "$OUT/summary-bps$bps.txt"
      continue
    fi
    (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_MECH=rsa2048-sign,p256-sign PV_BENCH_THREADS=1 \
       PV_BENCH_SECS=2 PV_BENCH_OSSL=none PV_BENCH_GPU_BPS=$bps PV_P11BENCH_LIMIT=40
     timeout 100 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
    mv "$OUT/summary.txt" "$OUT/summary-bps$bps.txt"
  done
}
case "${1:-}" in
  1) export PV_P11BENCH=0 PV_KAT_LIMIT=200 PV_RING_LIMIT=180 PV_GPU_BENCH_LIMIT=180
     exec timeout 580 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,bench --scale 0.5 ;;
  2) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=300 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_blob engine_wycheproof engine_oracle p11_wycheproof p11_bad p11_nothreads pk_general pk_session" \
       PV_E2E="token-basic symmetric pubkey" PV_E2E_LIMIT=150 \
       PV_LOAD_CFGS="embedded:cuda:1:64 daemon:cuda:8:8 daemon:cpu:8:8"
     exec timeout 580 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,load ;;
  12) export PV_RING_LIMIT=70 PV_GPU_BENCH_ONLY=latency PV_GPU_BENCH_LIMIT=40 PV_P11BENCH=0 \
       PV_UNIT_SUITES="" PV_UNIT_LIMIT=220 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_blob engine_wycheproof engine_oracle p11_wycheproof p11_bad p11_nothreads pk_general pk_session" \
       PV_E2E="token-basic symmetric pubkey" PV_E2E_LIMIT=110 PV_LOAD_SECS=8 PV_LOAD_LIMIT=45 \
       PV_LOAD_CFGS="embedded:cuda:1:64 daemon:cuda:8:8 daemon:cpu:8:8"
     exec timeout 585 bash tests/gpu/run-device --bundle "$B" --phases ring,unit,e2e,load,bench ;;
  4) export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_oracle engine_wycheproof engine_blob engine_pk engine_pk_wycheproof p11_wycheproof p11_oracle p11_bad p11_nothreads pk_general pk_session p11pk p11pk_wycheproof" \
       PV_E2E="token-basic symmetric pubkey daemon openssl ssh-login nss gnutls provision" PV_E2E_LIMIT=230 \
       PV_GPU_BENCH=0 PV_BENCH_SECS=1 PV_BENCH_THREADS=1,64,128 PV_P11BENCH_LIMIT=90 \
       PV_BENCH_MECH=sm2-sign,ed25519-sign,sha3-256-4k,sm3-4k,sha256-4k,aes256gcm-16k,aes256gcm-1m
     exec timeout 590 bash tests/gpu/run-device --bundle "$B" --phases ring,unit,e2e,bench ;;
  5) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=190 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="p11_bad p11_nothreads p11pk p11_oracle p11pk_wycheproof" \
       PV_E2E="token-basic symmetric pubkey ssh-login openssl nss gnutls daemon provision" PV_E2E_LIMIT=250
     exec timeout 470 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e ;;
  6) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=420 PV_UNIT_NAMES="p11pk_wycheproof" \
       PV_LOAD_SECS=30 PV_LOAD_LIMIT=60 PV_LOAD_CFGS="embedded:cuda:1:64 daemon:cuda:8:8"
     exec timeout 585 bash tests/gpu/run-device --bundle "$B" --phases unit,load ;;
  7) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=240 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_pk engine_pk_wycheproof pk_general p11pk" \
       PV_GPU_BENCH_ONLY=pk PV_GPU_BENCH_LIMIT=150 PV_BENCH_SECS=2 PV_BENCH_THREADS=1,64,128,256 \
       PV_P11BENCH_LIMIT=120 PV_BENCH_MECH=rsa2048-sign,p256-sign
     exec timeout 570 bash tests/gpu/run-device --bundle "$B" --phases unit,bench --scale 0.5 ;;
  8) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_pk engine_pk_wycheproof pk_general p11pk engine_blob" \
       PV_GPU_BENCH_ONLY=pk PV_GPU_BENCH_LIMIT=150 PV_BENCH_SECS=2 PV_BENCH_THREADS=1,128,512,1024 \
       PV_BENCH_GPU_SLOTS=1024 PV_P11BENCH_LIMIT=150 PV_BENCH_MECH=rsa2048-sign,p256-sign
     exec timeout 570 bash tests/gpu/run-device --bundle "$B" --phases unit,bench --scale 0.5 ;;
  10) export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_oracle engine_wycheproof engine_blob engine_pk engine_pk_wycheproof p11_wycheproof p11_oracle p11_bad pk_general pk_session p11pk" \
       PV_E2E="token-basic symmetric pubkey nss gnutls provision daemon" PV_E2E_LIMIT=150 \
       PV_GPU_BENCH=0 PV_BENCH_SECS=1 PV_BENCH_THREADS=1,128,512 PV_BENCH_GPU_SLOTS=1024 PV_P11BENCH_LIMIT=120
     exec timeout 560 bash tests/gpu/run-device --bundle "$B" --phases ring,unit,e2e,bench ;;
  11) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=60 PV_UNIT_TIMEOUT_SCALE=0.5 PV_UNIT_NAMES="engine_pk p11pk" \
       PV_E2E="token-basic" PV_E2E_LIMIT=40 PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=60 \
       PV_BENCH_SECS=1 PV_BENCH_THREADS=1,128,512 PV_BENCH_GPU_SLOTS=1024 PV_P11BENCH_LIMIT=70 \
       PV_BENCH_MECH=rsa2048-sign,p256-sign,sha3-256-4k
     exec timeout 250 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,bench --scale 0.3 ;;
  3) export PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=150 PV_BENCH_SECS=2 \
       PV_BENCH_THREADS=1,16,64,128,512 PV_BENCH_GPU_SLOTS=1024 PV_P11BENCH_LIMIT=260 PV_GPU_BENCH=0
     exec timeout 430 bash tests/gpu/run-device --bundle "$B" --phases stress,bench --scale 0.1 ;;
  15) export PV_BENCH_SPLIT=1 PV_BENCH_MECH=rsa2048-sign,ed25519-sign,p256-sign PV_BENCH_THREADS=128,512 \
       PV_BENCH_GPU_SLOTS=1024 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40 PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=60
     timeout 280 bash tests/gpu/run-device --bundle "$B" --phases bench --scale 0.3
     mv "$OUT/summary.txt" "$OUT/summary-main.txt"; mv "$OUT/logs.tgz" "$OUT/logs-main.tgz" 2>/dev/null
     rm -rf /tmp/pv-bundle
     export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=60 PV_UNIT_TIMEOUT_SCALE=0.5 PV_UNIT_NAMES="engine_pk p11pk"
     timeout 290 bash tests/gpu/run-device --bundle build-devpack/bundle-claim.tar.xz --phases ring,unit,bench --scale 0.3
     echo "=== main ==="; cat "$OUT/summary-main.txt" ;;
  16) export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=60 PV_UNIT_TIMEOUT_SCALE=0.5 PV_UNIT_NAMES="engine_pk p11pk" \
       PV_BENCH_SPLIT=1 PV_BENCH_MECH=rsa2048-sign,p256-sign,ed25519-sign,sha3-256-4k \
       PV_BENCH_THREADS=1,128,512,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40 \
       PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=60
     exec timeout 560 bash tests/gpu/run-device --bundle "$B" --phases ring,unit,bench --scale 0.3 ;;
  17) export PV_BENCH_SPLIT=1 PV_BENCH_MECH=sha3-256-4k,rsa2048-sign,ed25519-sign,p256-sign \
       PV_BENCH_THREADS=1,512,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40
     timeout 280 bash tests/gpu/run-device --bundle "$B" --phases bench
     mv "$OUT/summary.txt" "$OUT/summary-a.txt"; mv "$OUT/logs.tgz" "$OUT/logs-a.tgz" 2>/dev/null
     timeout 280 bash tests/gpu/run-device --bundle build-devpack/bundle-b.tar.xz --phases bench
     echo "=== A ==="; cat "$OUT/summary-a.txt" ;;
  18) export PV_KAT_LIMIT=150 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_pk engine_pk_wycheproof engine_blob pk_general p11pk" \
       PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=60 PV_BENCH_SPLIT=1 PV_BENCH_MECH=rsa2048-sign,p256-sign,sm2-sign \
       PV_BENCH_THREADS=1,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40
     exec timeout 580 bash tests/gpu/run-device --bundle "$B" --phases kat,unit,bench --scale 0.3 ;;
  19) export PV_RING_LIMIT=45 PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=150 \
       PV_GPU_BENCH_ONLY=sig,pcie PV_GPU_BENCH_LIMIT=40 PV_BENCH_SECS=2 PV_BENCH_THREADS=1,16,128,512,1024 \
       PV_BENCH_GPU_SLOTS=2048 PV_P11BENCH_LIMIT=330
     exec timeout 590 bash tests/gpu/run-device --bundle "$B" --phases ring,stress,bench --scale 0.3 ;;
  21) export PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=70 PV_BENCH_SPLIT=1 PV_BENCH_MECH=p256-sign,rsa2048-sign,sha3-256-4k \
       PV_BENCH_THREADS=1,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=30 PV_BENCH_OSSL=16
     timeout 170 bash tests/gpu/run-device --bundle "$B" --phases bench --scale 0.3
     mv "$OUT/summary.txt" "$OUT/summary-a.txt"; mv "$OUT/logs.tgz" "$OUT/logs-a.tgz" 2>/dev/null
     cp build-devpack/module-b.so /tmp/pv-bundle/build-dev/pkcs11/pixelvault-pkcs11.so
     export PV_GPU_BENCH=0 PV_BENCH_OSSL=none
     timeout 80 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench
     mv "$OUT/summary.txt" "$OUT/summary-b.txt"; mv "$OUT/logs.tgz" "$OUT/logs-b.tgz" 2>/dev/null
     export PV_GPU_BENCH=1 PV_KAT_LIMIT=90 PV_UNIT_SUITES="" PV_UNIT_LIMIT=110 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_pk p11pk"
     timeout 300 bash tests/gpu/run-device --bundle build-devpack/bundle-c.tar.xz --phases kat,unit,bench --scale 0.3
     echo "=== A ==="; cat "$OUT/summary-a.txt"; echo "=== B ==="; cat "$OUT/summary-b.txt" ;;
  22) export PV_RING_LIMIT=60 PV_UNIT_SUITES="" PV_UNIT_LIMIT=170 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_oracle engine_wycheproof engine_blob engine_pk engine_pk_wycheproof p11_oracle p11_wycheproof p11pk p11pk_keyref pk_general" \
       PV_E2E="token-basic" PV_E2E_LIMIT=40 \
       PV_GPU_BENCH_ONLY=sig,pcie PV_GPU_BENCH_LIMIT=70 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none \
       PV_BENCH_MECH=p256-sign,sm2-sign,rsa2048-sign,sha3-256-4k,sm3-4k,aes256gcm-1m \
       PV_BENCH_THREADS=1,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=30
     exec timeout 590 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,e2e,bench --scale 0.3 ;;
  23) export PV_KAT_LIMIT=60 PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=240 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_oracle p11_oracle engine_pk engine_blob pk_general p11pk p11pk_keyref" \
       PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=40 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none \
       PV_BENCH_MECH=p256-sign,sm2-sign,rsa2048-sign,aes256gcm-1m \
       PV_BENCH_THREADS=1,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=30
     timeout 380 bash tests/gpu/run-device --bundle build-devpack/bundle-b.tar.xz --phases kat,ring,unit,bench --scale 0.3
     mv "$OUT/summary.txt" "$OUT/summary-b.txt"; mv "$OUT/logs.tgz" "$OUT/logs-b.tgz" 2>/dev/null
     rm -rf /tmp/pv-bundle
     export PV_BENCH_MECH=p256-sign,sm2-sign,aes256gcm-1m
     timeout 150 bash tests/gpu/run-device --bundle "$B" --phases bench --scale 0.3
     echo "=== B ==="; cat "$OUT/summary-b.txt" ;;
  24) export PV_KAT_LIMIT=60 PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=280 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_oracle p11_oracle engine_blob engine_wycheproof p11_wycheproof engine_pk p11pk" \
       PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=130 \
       PV_GPU_BENCH_ONLY=pcie PV_GPU_BENCH_LIMIT=40 PV_BENCH_SPLIT=1 PV_BENCH_MECH=aes256gcm-1m \
       PV_BENCH_THREADS=1,16,128,512,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=90
     exec timeout 590 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,stress,bench --scale 0.3 ;;
  25) export PV_KAT_LIMIT=60 PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=60 PV_P11BENCH=0
     timeout 330 bash tests/gpu/run-device --bundle "$B" --phases kat,ecprof,bench --scale 0.3
     mv "$OUT/summary.txt" "$OUT/summary-1.txt"; mv "$OUT/logs.tgz" "$OUT/logs-1.tgz" 2>/dev/null
     export PV_UNIT_SUITES="" PV_UNIT_LIMIT=230 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_oracle engine_wycheproof engine_blob p11_wycheproof p11_oracle"
     timeout 250 bash tests/gpu/run-device --bundle "$B" --phases unit
     echo "=== part 1 ==="; cat "$OUT/summary-1.txt" ;;
  28) export PV_KAT_LIMIT=60
     exec timeout 400 bash tests/gpu/run-device --bundle "$B" --phases kat,ecprof ;;
  29) export PV_ECLOAD_N=132,528,1056 PV_VELOAD_STAGGER="700 1500" PV_NCU_K=ve PV_NCU_N="1056" PV_NCU_EXTRA=1500
     exec timeout 300 bash tests/gpu/run-device --bundle "$B" --phases ecprof ;;
  30) export PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=90 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none \
       PV_BENCH_MECH=p256-sign PV_BENCH_THREADS=1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=30
     nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_throttle_reasons.active \
       --format=csv -lms 100 > "$OUT/smi.csv" 2>&1 &
     timeout 200 bash tests/gpu/run-device --bundle "$B" --phases bench --scale 0.6
     kill %1 ;;
  31) export PV_KAT_LIMIT=60 PV_RING_LIMIT=80 PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_open engine_blob engine_pk p11pk engine_oracle engine_wycheproof p11_wycheproof" \
       PV_E2E=token-basic PV_E2E_LIMIT=90 PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=100
     timeout 400 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,e2e,stress > /dev/null 2>&1
     mv "$OUT/summary.txt" "$OUT/summary-check.txt"; mv "$OUT/logs.tgz" "$OUT/logs-check.tgz" 2>/dev/null
     export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=${AB_MECH:-p256-sign,sm2-sign} \
       PV_BENCH_THREADS=1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=30
     for b in default 4; do
       if [ $b = default ]; then unset PV_BENCH_GPU_BPS; else export PV_BENCH_GPU_BPS=$b; fi
       timeout 70 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1
       mv "$OUT/summary.txt" "$OUT/summary-bps$b.txt"
     done
     cat "$OUT/summary-check.txt"; for b in default 4; do echo "=== blocks/SM $b ==="; cat "$OUT/summary-bps$b.txt"; done ;;
  32) ab_bench
     rate() { grep -E '^\| p256-sign .*\| token .*\| 1024 ' "$OUT/summary-ab-$1.txt" | awk -F'|' '{print $5+0}'; }
     ra=$(rate a); rb=$(rate b); pick=$B
     [ -n "$ra" ] && [ -n "$rb" ] && [ "$rb" -ge $(( ra * 103 / 100 )) ] && pick=build-devpack/bundle-b.tar.xz
     echo "P-256 at 1,024: A $ra /s, B $rb /s; plan 31 on $pick" | tee "$OUT/ab.txt"
     (PV_BUNDLE=$pick bash "$0" 31)
     for x in a b; do echo "=== A/B $x ==="; cat "$OUT/summary-ab-$x.txt"; done; cat "$OUT/ab.txt" ;;
  33) sass_counts() {   # the unpacked bundle's vault kernel: $OUT/sass-$x.txt.gz and the counts
       cuobjdump -sass -fun pvc_vault_kernel /tmp/pv-bundle/build-dev/tests/gpu/gpu_ring > "$OUT/sass-$x.txt" 2>&1
       echo "$x: $(grep -c 'CCTL.IVALL' "$OUT/sass-$x.txt") CCTL.IVALL, $(grep -c 'MEMBAR' "$OUT/sass-$x.txt") MEMBAR, $(grep -c 'STRONG.GPU' "$OUT/sass-$x.txt") STRONG.GPU" | tee -a "$OUT/ab.txt"
       gzip -f "$OUT/sass-$x.txt"
     }
     ab_bench sass_counts
     export PV_RING_LIMIT=80 PV_UNIT_SUITES="" PV_UNIT_LIMIT=120 PV_UNIT_NAMES="engine_pk p11pk engine_oracle" \
       PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=60
     timeout 280 bash tests/gpu/run-device --bundle build-devpack/bundle-b.tar.xz --phases ring,unit,stress > /dev/null 2>&1
     for x in a b; do echo "=== A/B $x ==="; cat "$OUT/summary-ab-$x.txt"; done; cat "$OUT/ab.txt"
     echo "=== B checks ==="; cat "$OUT/summary.txt" ;;
  34) export PV_ECLOAD_N=528,1056 PV_VELOAD_STAGGER=700 PV_VELOAD_WORK="0 1 2 4 8 15" \
       PV_NCU_K=ve PV_NCU_N=1056 PV_NCU_EXTRA="700 15" PV_ECLOAD_CARVEOUTS=-1
     exec timeout 400 bash tests/gpu/run-device --bundle "$B" --phases ecprof ;;
  35) export PV_ECLOAD_N=1056 PV_VELOAD_WORK=8 PV_NCU_K=ve PV_NCU_N=1056 PV_NCU_EXTRA="700 8" \
       PV_NCU_SOURCE=1 PV_ECLOAD_CARVEOUTS=-1
     exec timeout 400 bash tests/gpu/run-device --bundle "$B" --phases ecprof ;;
  36) for x in a b; do
       bb=$B; [ $x = b ] && bb=build-devpack/bundle-b.tar.xz
       PV_ECLOAD_N=1056 PV_VELOAD_STAGGER=700 PV_VELOAD_WORK="0 8" PV_NCU_N=none PV_ECLOAD_CARVEOUTS=-1 \
         timeout 60 bash tests/gpu/run-device --bundle "$bb" --phases ecprof > /dev/null 2>&1
       mv "$OUT/summary.txt" "$OUT/summary-ve-$x.txt"
     done
     AB_THREADS=1,1024 ab_bench
     (export PV_KAT_LIMIT=60 PV_UNIT_SUITES="" PV_UNIT_LIMIT=170 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="engine_open engine_blob engine_pk p11pk engine_oracle p11_oracle" \
        PV_GPU_BENCH_ONLY=latency PV_GPU_BENCH_LIMIT=40 PV_P11BENCH=0
      timeout 300 bash tests/gpu/run-device --bundle build-devpack/bundle-b.tar.xz --phases kat,unit,bench > /dev/null 2>&1)
     for x in a b; do echo "=== $x ==="; grep -h 'veload\|ecload' "$OUT/summary-ve-$x.txt" | grep 'n  1056'
       grep -E '^\| (p256|sm2)-sign' "$OUT/summary-ab-$x.txt"; done
     echo "=== B checks ==="; cat "$OUT/summary.txt" ;;
  37) C=build-devpack/bundle-c.tar.xz
     for x in a c; do
       bb=$B; [ $x = c ] && bb=$C
       (export PV_UNIT_SUITES="" PV_UNIT_LIMIT=60 PV_UNIT_TIMEOUT_SCALE=1 PV_UNIT_NAMES="p11pk"
        for k in 1 2; do timeout 75 bash tests/gpu/run-device --bundle "$bb" --phases unit > /dev/null 2>&1
          grep -h 'tests:\|FAIL' "$OUT/summary.txt" | sed "s/^/$x p11pk run $k: /" >> "$OUT/p11pk.txt"; done)
     done
     PV_ECLOAD_N=1056 PV_VELOAD_STAGGER=700 PV_VELOAD_WORK="0 8 24" PV_NCU_N=none PV_ECLOAD_CARVEOUTS=-1 \
       timeout 70 bash tests/gpu/run-device --bundle "$C" --phases ecprof > /dev/null 2>&1
     mv "$OUT/summary.txt" "$OUT/summary-ve-c.txt"
     AB_B=$C AB_THREADS=1,1024 ab_bench
     cat "$OUT/p11pk.txt"; grep -h 'veload\|ecload' "$OUT/summary-ve-c.txt"
     for x in a b; do echo "=== $x ==="; grep -E '^\| (p256|sm2)-sign' "$OUT/summary-ab-$x.txt"; done ;;
  38) AB_THREADS=1,128,1024 AB_MECH=p256-sign,sm2-sign,rsa2048-sign AB_LIMIT=50 ab_bench
     (export PV_KAT_LIMIT=60 PV_RING_LIMIT=80 PV_UNIT_SUITES="" PV_UNIT_LIMIT=120 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="engine_open engine_blob engine_pk p11pk engine_oracle" \
        PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=60 \
        PV_GPU_BENCH_ONLY=latency PV_GPU_BENCH_LIMIT=40 PV_P11BENCH=0
      timeout 330 bash tests/gpu/run-device --bundle build-devpack/bundle-b.tar.xz --phases kat,ring,unit,stress,bench > /dev/null 2>&1)
     for x in a b; do echo "=== $x ==="; grep -E '^\| [a-z0-9]+-sign' "$OUT/summary-ab-$x.txt"; done
     echo "=== B checks ==="; cat "$OUT/summary.txt" ;;
  39) for x in a b; do
       bb=$B; [ $x = b ] && bb=build-devpack/bundle-b.tar.xz
       PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=60 \
         timeout 80 bash tests/gpu/run-device --bundle "$bb" --phases stress > /dev/null 2>&1
       mv "$OUT/summary.txt" "$OUT/stress-$x.txt"
     done
     export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_THREADS=1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2
     PV_BENCH_OSSL=16 PV_BENCH_MECH=p256-sign,sm2-sign,rsa2048-sign PV_P11BENCH_LIMIT=80 \
       timeout 110 bash tests/gpu/run-device --bundle build-devpack/bundle-b.tar.xz --phases bench > /dev/null 2>&1
     mv "$OUT/summary.txt" "$OUT/bench-b.txt"
     PV_BENCH_OSSL=none PV_BENCH_MECH=rsa2048-sign PV_P11BENCH_LIMIT=40 \
       timeout 70 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1
     mv "$OUT/summary.txt" "$OUT/bench-a.txt"
     for x in a b; do echo "=== $x ==="; grep -h 'p11stress:' "$OUT/stress-$x.txt" | head -1
       grep -hE '^\| [a-z0-9]+-sign' "$OUT/bench-$x.txt"; done ;;
  41) (export PV_KAT_LIMIT=90 PV_UNIT_SUITES="" PV_UNIT_LIMIT=70 PV_UNIT_TIMEOUT_SCALE=1 PV_UNIT_NAMES="p11pk"
      timeout 170 bash tests/gpu/run-device --bundle "$B" --phases kat,unit > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-a-checks.txt"
     AB_THREADS=1,1024 AB_MECH=rsa2048-sign,p256-sign,sm2-sign ab_bench
     (export PV_RING_LIMIT=80 PV_UNIT_SUITES="" PV_UNIT_LIMIT=100 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="engine_pk p11pk" PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=60
      timeout 250 bash tests/gpu/run-device --bundle build-devpack/bundle-b.tar.xz --phases ring,unit,stress > /dev/null 2>&1)
     echo "=== A checks ==="; cat "$OUT/summary-a-checks.txt"
     for x in a b; do echo "=== $x ==="; grep -E '^\| [a-z0-9]+-sign|^  (execute|notify) ' "$OUT/summary-ab-$x.txt"; done
     echo "=== B checks ==="; cat "$OUT/summary.txt" ;;
  42) (export PV_KAT_LIMIT=60 PV_RING_LIMIT=80 PV_UNIT_SUITES="" PV_UNIT_LIMIT=260 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="engine_open engine_blob engine_pk p11pk engine_oracle p11_oracle engine_wycheproof p11_wycheproof p11_bad" \
        PV_E2E="token-basic symmetric pubkey" PV_E2E_LIMIT=120 PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=60 PV_P11BENCH=0
      timeout 470 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,e2e,bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-checks.txt"; mv "$OUT/logs.tgz" "$OUT/logs-checks.tgz" 2>/dev/null
     (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=4 \
        PV_P11BENCH_LIMIT=25 PV_BENCH_TOP=3
      PV_BENCH_MECH=sm3-4k,sha3-256-4k PV_BENCH_THREADS=128,1024 \
        timeout 110 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1
      mv "$OUT/summary.txt" "$OUT/summary-hash.txt"
      PV_BENCH_MECH=p256-sign PV_BENCH_THREADS=1024 timeout 40 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
     cat "$OUT/summary-checks.txt"; echo "=== host CPU ==="; cat "$OUT/summary-hash.txt" "$OUT/summary.txt" ;;
  43) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=330 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_pk_wycheproof p11pk_wycheproof p11_nothreads pk_general pk_session p11pk_keyref" \
       PV_E2E="openssl ssh-login ssh-login-daemon nss gnutls daemon provision" PV_E2E_LIMIT=230
     exec timeout 590 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e ;;
  44) (export PV_UNIT_SUITES="" PV_UNIT_LIMIT=90 PV_UNIT_TIMEOUT_SCALE=1 PV_UNIT_NAMES="p11_nothreads p11_bad engine_blob"
      timeout 110 bash tests/gpu/run-device --bundle "$B" --phases unit > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-unit.txt"
     PV_ECLOAD_N=1 PV_NCU_K=ve PV_NCU_N=1 PV_NCU_SOURCE=1 PV_ECLOAD_CARVEOUTS=-1 PV_NCU_LIMIT=120 \
       timeout 330 bash tests/gpu/run-device --bundle "$B" --phases ecprof > /dev/null 2>&1
     cat "$OUT/summary-unit.txt" "$OUT/summary.txt"; grep -h 'Duration\|Executed Instructions \|No Instruction\|Stall' "$OUT/ncu-ve-1.txt" | head -20 ;;
  45|46) [ "$1" = 46 ] && export PV_UNIT_NAMES="" PV_BENCH_MECH=rsa2048-sign PV_BENCH_OSSL=none
     (export PV_KAT_LIMIT=150 PV_RING_LIMIT=80 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=0.5 \
        PV_UNIT_NAMES="${PV_UNIT_NAMES-engine_pk engine_pk_wycheproof engine_blob pk_general p11pk}" \
        PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=60 PV_BENCH_SPLIT=1 \
        PV_BENCH_MECH=${PV_BENCH_MECH:-rsa2048-sign,p256-sign,sm2-sign} \
        PV_BENCH_THREADS=1,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40
      P=kat,ring,unit,bench; [ -z "$PV_UNIT_NAMES" ] && P=kat,ring,bench
      timeout 520 bash tests/gpu/run-device --bundle "$B" --phases $P --scale 0.3 > /dev/null 2>&1)
     cuobjdump -sass /tmp/pv-bundle/build-dev/tests/gpu/gpu_ring > "$OUT/sass.txt" 2>&1
     gzip -f "$OUT/sass.txt"
     cat "$OUT/summary.txt" ;;
  47) (export PV_GPU_BENCH_ONLY=mm PV_GPU_BENCH_LIMIT=30 PV_P11BENCH=0
      timeout 40 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-mm.txt"
     bash "$0" 45 > /dev/null 2>&1
     mv "$OUT/summary.txt" "$OUT/summary-45.txt"; mv "$OUT/logs.tgz" "$OUT/logs-45.tgz" 2>/dev/null
     PV_ECLOAD_N=1 PV_VELOAD_WORK=32 PV_NCU_K=ve PV_NCU_N=1 PV_NCU_EXTRA="0 32" PV_NCU_SOURCE=1 \
       PV_ECLOAD_CARVEOUTS=-1 PV_NCU_LIMIT=120 timeout 300 bash tests/gpu/run-device --bundle "$B" --phases ecprof > /dev/null 2>&1
     grep -h 'BENCH mm' "$OUT/summary-mm.txt"; cat "$OUT/summary-45.txt"; echo "=== veload RSA ==="
     grep -h 'veload' "$OUT/summary.txt"
     grep -h 'Duration\|Executed Instructions \|No Instruction\|Stall' "$OUT/ncu-ve-1.txt" | head -20 ;;
  48) export PV_UNIT_SUITES="" PV_UNIT_NAMES="p11pk_wycheproof" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_E2E="pubkey openssl" PV_E2E_LIMIT=120 PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=100 \
       PV_GPU_BENCH=0 PV_BENCH_MECH=rsa2048-sign PV_BENCH_THREADS=1,1024 PV_BENCH_GPU_SLOTS=2048 \
       PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=90
     exec timeout 430 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,stress,bench ;;
  49) PV_ECLOAD_N=1 PV_VELOAD_WORK=32 PV_NCU_K=ve PV_NCU_N=1 PV_NCU_EXTRA="0 32" PV_NCU_SOURCE=1 \
       PV_ECLOAD_CARVEOUTS=-1 PV_NCU_LIMIT=120 timeout 300 bash tests/gpu/run-device --bundle "$B" --phases ecprof > /dev/null 2>&1
     G=/tmp/pv-bundle/build-dev/tests/gpu/gpu_bench; export PATH=$PATH:/usr/local/cuda/bin
     timeout 120 ncu --clock-control none -k regex:k_mm_exp --launch-skip 1 --launch-count 1 \
       --section SourceCounters --section InstructionStats -o /tmp/ncusrc-mm "$G" 1 mm > "$OUT/ncu-mm.txt" 2>&1
     ncu --import /tmp/ncusrc-mm.ncu-rep --page source --print-source sass --csv 2>&1 | xz -T0 > "$OUT/ncusrc-mm.csv.xz"
     grep -h 'veload' "$OUT/summary.txt"; grep -h 'BENCH mm' "$OUT/ncu-mm.txt"
     grep -h 'Duration\|Executed Instructions \|No Instruction\|Stall' "$OUT/ncu-ve-1.txt" | head -20 ;;
  50) PV_ECLOAD_N=1 PV_VELOAD_WORK=40 PV_NCU_K=ve PV_NCU_N=1 PV_NCU_EXTRA="0 40" PV_NCU_SOURCE=1 \
       PV_ECLOAD_CARVEOUTS=-1 PV_NCU_LIMIT=120 timeout 300 bash tests/gpu/run-device --bundle "$B" --phases ecprof > /dev/null 2>&1
     mv "$OUT/ncusrc-ve-1.csv.xz" "$OUT/ncusrc-ve-1x4.csv.xz"; mv "$OUT/ncu-ve-1.txt" "$OUT/ncu-ve-1x4.txt"
     grep -h 'veload' "$OUT/summary.txt"; grep -h 'Duration\|Executed Instructions ' "$OUT/ncu-ve-1x4.txt" | head ;;
  51) (export PV_GPU_BENCH_ONLY=mm,sig PV_GPU_BENCH_LIMIT=60 PV_BENCH_SPLIT=1 PV_P11BENCH=0
      timeout 100 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-sig.txt"
     bps_rows
     grep -h 'BENCH mm\|lone' "$OUT/summary-sig.txt"
     bps_rows print ;;
  53) (export PV_GPU_BENCH_ONLY=mm PV_GPU_BENCH_LIMIT=40 PV_P11BENCH=0
      timeout 50 bash tests/gpu/run-device --bundle "${AB_B:-build-devpack/bundle-b.tar.xz}" --phases bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-mm.txt"
     (export PV_KAT_LIMIT=60 PV_RING_LIMIT=60 PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=0.5 \
        PV_UNIT_NAMES="engine_pk engine_pk_wycheproof pk_general p11pk" \
        PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=40 PV_BENCH_SPLIT=1 PV_BENCH_MECH=rsa2048-sign,p256-sign \
        PV_BENCH_THREADS=1,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_BENCH_OSSL=none PV_P11BENCH_LIMIT=40
      timeout 400 bash tests/gpu/run-device --bundle "${AB_B:-build-devpack/bundle-b.tar.xz}" \
        --phases kat,ring,unit,bench --scale 0.3 > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-b.txt"; mv "$OUT/logs.tgz" "$OUT/logs-b.tgz" 2>/dev/null
     (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_MECH=rsa2048-sign PV_BENCH_THREADS=1,1024 \
        PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_BENCH_OSSL=none PV_P11BENCH_LIMIT=30
      timeout 60 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-a.txt"
     grep -h 'BENCH mm' "$OUT/summary-mm.txt"; echo "== B"; cat "$OUT/summary-b.txt"
     echo "== A"; grep -h '| token' "$OUT/summary-a.txt" ;;
  54) bps_rows; bps_rows print ;;
  55) b_checks
     for i in 1 2; do
       AB_MECH=p256-sign,sm2-sign AB_THREADS=1,16,1024 AB_LIMIT=60 ab_bench
       mv "$OUT/summary-ab-a.txt" "$OUT/summary-ab-a$i.txt"; mv "$OUT/summary-ab-b.txt" "$OUT/summary-ab-b$i.txt"
     done
     head -3 "$OUT/summary-b-checks.txt"
     for f in a1 b1 a2 b2; do echo "== $f"; grep -h '| token' "$OUT/summary-ab-$f.txt"; done ;;
  57) bash "$0" 55
     (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=sm2-sign PV_BENCH_THREADS=1 \
        PV_BENCH_SECS=6 PV_P11BENCH_LIMIT=40
      timeout 60 bash tests/gpu/run-device --bundle "${AB_B:-build-devpack/bundle-b.tar.xz}" --phases bench > /dev/null 2>&1)
     echo "== B, SM2 lone 6 s"; grep -h '| token\|total\|execute' "$OUT/summary.txt" ;;
  58) b_checks
     AB_MECH=sm2-sign,p256-sign AB_THREADS=1,1024 AB_LIMIT=40 ab_bench
     (export PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=90
      timeout 110 bash tests/gpu/run-device --bundle "${AB_B:-build-devpack/bundle-b.tar.xz}" \
        --phases stress > /dev/null 2>&1)
     head -3 "$OUT/summary-b-checks.txt"
     for f in a b; do echo "== $f"; grep -h '| token' "$OUT/summary-ab-$f.txt"; done
     grep -h 'p11stress' "$OUT/summary.txt" | tail -1 ;;
  59) (export PV_GPU_BENCH_ONLY=pcie PV_GPU_BENCH_LIMIT=60 PV_P11BENCH=0
      timeout 70 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-pcie.txt"; mv "$OUT/gpu_bench.log" "$OUT/gpu_bench-pcie.log"
     for i in 1 2; do
       AB_MECH=aes256gcm-1m AB_THREADS=16,128,512,1024 AB_LIMIT=45 ab_bench
       mv "$OUT/summary-ab-a.txt" "$OUT/summary-ab-a$i.txt"; mv "$OUT/summary-ab-b.txt" "$OUT/summary-ab-b$i.txt"
     done
     (export PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=0.5 \
        PV_UNIT_NAMES="engine_arena engine_oracle p11_oracle engine_wycheproof p11_wycheproof" \
        PV_E2E="symmetric" PV_E2E_LIMIT=60
      timeout 230 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e > /dev/null 2>&1)
     grep -h 'BENCH host-memory\|BENCH caller-H2D\|cudaMemcpy\|zero-copy loads' "$OUT/gpu_bench-pcie.log"
     for f in a1 b1 a2 b2; do echo "== $f"; grep -h '| token' "$OUT/summary-ab-$f.txt"; done
     echo "== checks"; cat "$OUT/summary.txt" ;;
  60) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=350 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="p11_oracle engine_pk p11pk engine_pk_wycheproof pk_general engine_open engine_blob p11_bad p11_nothreads pk_session p11pk_keyref p11pk_wycheproof" \
       PV_E2E="token-basic pubkey openssl ssh-login ssh-login-daemon nss gnutls daemon provision" PV_E2E_LIMIT=220
     exec timeout 590 bash tests/gpu/run-device --bundle "$B" --phases e2e,unit ;;
  61) b_checks
     for i in 1 2; do
       AB_MECH=p256-sign,sm2-sign AB_THREADS=1,1024 AB_LIMIT=40 ab_bench
       mv "$OUT/summary-ab-a.txt" "$OUT/summary-ab-a$i.txt"; mv "$OUT/summary-ab-b.txt" "$OUT/summary-ab-b$i.txt"
     done
     (export PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=90
      timeout 110 bash tests/gpu/run-device --bundle "${AB_B:-build-devpack/bundle-b.tar.xz}" \
        --phases stress > /dev/null 2>&1)
     head -3 "$OUT/summary-b-checks.txt"
     for f in a1 b1 a2 b2; do echo "== $f"; grep -h '| token' "$OUT/summary-ab-$f.txt"; done
     grep -h 'p11stress' "$OUT/summary.txt" | tail -1 ;;
  62) (export PV_RING_LIMIT=60 PV_GPU_BENCH=0 PV_P11BENCH=0 PV_UNIT_SUITES="" PV_UNIT_LIMIT=${AB_UNIT_LIMIT:-60} \
        PV_UNIT_TIMEOUT_SCALE=1 PV_UNIT_NAMES="${AB_UNITS:-engine_arena}"
      timeout $(( ${AB_UNIT_LIMIT:-60} + 80 )) bash tests/gpu/run-device --bundle "$B" --phases ring,unit > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-a-checks.txt"
     cp "$PV_MODULE" /tmp/pv-module-a.so
     for i in $(seq 1 "${AB_ROUNDS:-2}"); do
       for x in a b ${AB_C:+c}; do
         ab_use $x
         (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=${AB_MECH:-sha3-256-4k,sm3-4k,p256-sign} \
            PV_BENCH_THREADS=${AB_THREADS:-512,1024} PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=25
          timeout 110 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
         mv "$OUT/summary.txt" "$OUT/summary-$x$i.txt"
         echo "== $x$i"; grep -h '| token' "$OUT/summary-$x$i.txt"
       done
     done > "$OUT/summary-ab.txt"
     ab_use a
     if [ "${AB_OSSL:-0}" = 1 ]; then
       (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=16 PV_BENCH_MECH=${AB_MECH:-sha3-256-4k,sm3-4k,p256-sign} \
          PV_BENCH_THREADS=${AB_THREADS:-512,1024} PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40
        timeout 110 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       mv "$OUT/summary.txt" "$OUT/summary-ossl.txt"
       { echo "== a with OpenSSL-16"; grep -h '| token\|| openssl' "$OUT/summary-ossl.txt"; } >> "$OUT/summary-ab.txt"
     fi
     cat "$OUT/summary-a-checks.txt" "$OUT/summary-ab.txt" ;;
  63) (export PV_E2E="token-basic symmetric daemon ssh-login-daemon" \
        PV_E2E_LIMIT=150 PV_LOAD_SECS=8 PV_LOAD_LIMIT=45 \
        PV_LOAD_CFGS="embedded:cuda:1:64 daemon:cuda:8:8 daemon:cpu:8:8" \
        PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=150
      timeout 390 bash tests/gpu/run-device --bundle "$B" --phases e2e,load,stress > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-checks.txt"; mv "$OUT/logs.tgz" "$OUT/logs-checks.tgz" 2>/dev/null
     export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=sha3-256-4k,sm3-4k,aes256gcm-16k,p256-sign \
       PV_BENCH_THREADS=1,16,128,512,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=20
     timeout 190 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1
     cat "$OUT/summary-checks.txt"; echo "== rows"; grep -hE '\| token|^  (execute|notify) ' "$OUT/summary.txt" ;;
  64) (export PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="pk_general p11_bad p11_nothreads pk_session p11_oracle p11pk" \
        PV_E2E="token-basic symmetric daemon ssh-login-daemon nss" PV_E2E_LIMIT=150 \
        PV_LOAD_SECS=8 PV_LOAD_LIMIT=45 PV_LOAD_CFGS="embedded:cuda:1:64 daemon:cuda:8:8" \
        PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=150
      timeout 470 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,load,stress > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-checks.txt"; mv "$OUT/logs.tgz" "$OUT/logs-checks.tgz" 2>/dev/null
     export PV_GPU_BENCH=0 PV_BENCH_OSSL=16 PV_BENCH_MECH=sha3-256-4k,sm3-4k PV_BENCH_THREADS=1024 \
       PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=60
     timeout 80 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1
     grep -v '^CKM_\|^C_' "$OUT/summary-checks.txt"; echo "== rows"; grep -h '| token\|| openssl' "$OUT/p11bench.txt" ;;
  65) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="p11pk p11_oracle pk_general p11_bad p11_close" PV_E2E="token-basic daemon" PV_E2E_LIMIT=80 \
       PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=80
     timeout 330 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,stress > /dev/null 2>&1
     grep -v '^CKM_\|^C_' "$OUT/summary.txt" ;;
  68) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="p11pk p11_close p11_bad pk_general pk_session p11_nothreads" \
       PV_E2E="token-basic symmetric daemon nss" PV_E2E_LIMIT=120 \
       PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=80
     timeout 330 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,stress > /dev/null 2>&1
     grep -v '^CKM_\|^C_' "$OUT/summary.txt" ;;
  56) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=300 PV_UNIT_TIMEOUT_SCALE=0.5 \
       PV_UNIT_NAMES="engine_pk engine_pk_wycheproof pk_general p11pk engine_oracle p11_oracle" \
       PV_E2E="pubkey openssl" PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=150
     exec timeout 580 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,stress ;;
  66) rm -rf /tmp/pv-bundle && mkdir -p /tmp/pv-bundle && tar -C /tmp/pv-bundle -xJf "$B"
     : > "$OUT/summary-mm.txt"
     if [ "${AB_MM:-1}" = 1 ]; then
       (export PV_GPU_BENCH_ONLY=mm PV_GPU_BENCH_LIMIT=40 PV_P11BENCH=0
        timeout 50 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       mv "$OUT/summary.txt" "$OUT/summary-mm.txt"
     fi
     (export PV_KAT_LIMIT=60 PV_RING_LIMIT=90 PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=0.5 \
        PV_UNIT_NAMES="engine_pk engine_pk_wycheproof pk_general p11pk" \
        PV_GPU_BENCH_ONLY=sig PV_GPU_BENCH_LIMIT=40 PV_P11BENCH=0 \
        PV_STRESS_SECS=${AB_STRESS:-30} PV_STRESS_THREADS=64 PV_STRESS_LIMIT=80
      timeout 400 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases kat,ring,unit,stress,bench --scale 0.3 > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-checks.txt"; mv "$OUT/logs.tgz" "$OUT/logs-checks.tgz" 2>/dev/null
     cp "$PV_MODULE" /tmp/pv-module-a.so
     for x in a b; do
       [ $x = b ] && ab_use b
       (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=rsa2048-sign \
          PV_BENCH_THREADS=1,16,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40
        timeout 75 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       mv "$OUT/summary.txt" "$OUT/summary-$x.txt"
     done
     ab_use a
     grep -h 'BENCH mm' "$OUT/summary-mm.txt"; grep -v '^CKM_\|^C_' "$OUT/summary-checks.txt"
     for x in a b; do echo "== $x"; grep -h '| token\|execute' "$OUT/summary-$x.txt"; done ;;
  67) (export PV_KAT_LIMIT=60 PV_RING_LIMIT=60 PV_UNIT_SUITES="" PV_UNIT_LIMIT=220 PV_UNIT_TIMEOUT_SCALE=0.5 \
        PV_UNIT_NAMES="engine_oracle p11_oracle engine_wycheproof p11_wycheproof engine_blob" \
        PV_E2E="token-basic" PV_E2E_LIMIT=60 PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=80
      timeout 440 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,e2e,stress > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-checks.txt"; mv "$OUT/logs.tgz" "$OUT/logs-checks.tgz" 2>/dev/null
     ab_swap sha256-4k,sm3-4k "${AB_THREADS:-1,1024}" 30
     grep -v '^CKM_\|^C_' "$OUT/summary-checks.txt"
     cat "$OUT/summary-ab.txt" ;;
  69) (export PV_KAT_LIMIT=40 PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=${PV_UNIT_LIMIT:-120} PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="engine_blob engine_open engine_pk engine_oracle p11_master p11pk ${PV_EXTRA_UNITS:-}" \
        PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=150 \
        PV_GPU_BENCH_ONLY=${PLAN_GPU_BENCH:-all,sig,keygen} PV_GPU_BENCH_LIMIT=200 PV_BENCH_SECS=2 \
        PV_BENCH_THREADS=1,16,128,512,1024 PV_BENCH_GPU_SLOTS=2048 PV_P11BENCH_LIMIT=330
      timeout 500 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,stress,bench --scale 0.3 > /dev/null 2>&1)
     for f in summary p11bench logs; do
       for e in txt csv tgz; do [ -f "$OUT/$f.$e" ] && mv "$OUT/$f.$e" "$OUT/$f-release.$e"; done
     done
     ab_swap "${AB_MECH:-p256-sign,sm2-sign}" "${AB_THREADS:-1,1024}" "${AB_LIMIT:-25}"
     grep -v '^CKM_\|^C_\|^BENCH ring-P256 *[0-9]\|^BENCH ring-RSA2048 *[0-9]' "$OUT/summary-release.txt"
     tar -xzOf "$OUT/logs-release.tgz" --wildcards '*gpu_bench-keygen.log' | grep 'mean of\|DIFFERENT'
     cat "$OUT/summary-ab.txt" ;;
  71) stress_keygen_pair ;;
  72) (export PV_KAT_LIMIT=40 PV_RING_LIMIT=60 PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="engine_blob engine_pk p11pk p11_bad p11_nothreads pk_general pk_session" \
        PV_E2E="token-basic daemon ssh-login-daemon" PV_E2E_LIMIT=100 \
        PV_LOAD_SECS=8 PV_LOAD_LIMIT=45 PV_LOAD_CFGS="embedded:cuda:1:64 daemon:cuda:8:8"
      timeout 300 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,e2e,load > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-checks.txt"; mv "$OUT/logs.tgz" "$OUT/logs-checks.tgz" 2>/dev/null
     grep -v '^CKM_\|^C_' "$OUT/summary-checks.txt"
     stress_keygen_pair
     ab_swap p256-sign,sha3-256-4k,rsa2048-sign 1,1024 25
     cat "$OUT/summary-ab.txt" ;;
  73) (export PV_KAT_LIMIT=40 PV_GPU_BENCH_ONLY=keygen PV_GPU_BENCH_LIMIT=150 PV_P11BENCH=0 \
        PV_UNIT_SUITES="" PV_UNIT_LIMIT=240 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="engine_pk p11pk pk_general p11_oracle" PV_E2E="token-basic pubkey" PV_E2E_LIMIT=100
      timeout 420 bash tests/gpu/run-device --bundle "$B" --phases kat,bench,unit,e2e > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-checks.txt"; mv "$OUT/logs.tgz" "$OUT/logs-checks.tgz" 2>/dev/null
     cat "$OUT/summary-checks.txt"
     tar -xzOf "$OUT/logs-checks.tgz" --wildcards '*gpu_bench-keygen.log' | grep '^keygen'
     (export PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=150
      timeout 160 bash tests/gpu/run-device --bundle "$B" --phases stress > /dev/null 2>&1)
     head -1 "$OUT/summary.txt"
     tar -xzOf "$OUT/logs.tgz" --wildcards '*stress.log' | sed -n '/^mechanism/,$p' | sort -k6 -n -r | head -5 ;;
  74) (export PV_RING_LIMIT=60; timeout 80 bash tests/gpu/run-device --bundle "$B" --phases ring > /dev/null 2>&1)
     head -1 "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     G=/tmp/pv-bundle/build-dev/tests/gpu/gpu_bench
     cp "$G" /tmp/pv-gpu-bench-a
     for x in a1 b1 a2 b2; do
       case $x in a*) cp /tmp/pv-gpu-bench-a "$G" ;; b*) cp build-devpack/gpu_bench-b "$G" ;; esac
       (export PV_GPU_BENCH_ONLY=all PV_GPU_BENCH_LIMIT=90 PV_P11BENCH=0
        timeout 100 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench --scale 0.3 > /dev/null 2>&1)
       echo "== $x"; grep 'end-to-end\|latency ' "$OUT/summary.txt"
       rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     done
     cp /tmp/pv-gpu-bench-a "$G" ;;
  75) export PV_UNIT_SUITES="" PV_UNIT_LIMIT=170 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_pk_wycheproof p11pk_wycheproof p11pk_keyref engine_open p11_bad pk_session" \
       PV_E2E="openssl ssh-login nss gnutls provision" PV_E2E_LIMIT=100
     exec timeout 280 bash tests/gpu/run-device --bundle "$B" --phases e2e,unit ;;
  76) (export PV_KAT_LIMIT=40 PV_RING_LIMIT=45 PV_GPU_BENCH=0 PV_P11BENCH=0
      timeout 100 bash tests/gpu/run-device --bundle "$B" --phases kat,ring > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-kat.txt"
     (export PIXELVAULT_CUDA_STAGE_MIN=1 PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=1 \
        PV_UNIT_NAMES="p11_wycheproof p11_master p11_bad p11pk pk_general" \
        PV_E2E="symmetric token-basic" PV_E2E_LIMIT=90
      timeout 260 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-staged.txt"; mv "$OUT/logs.tgz" "$OUT/logs-staged.tgz" 2>/dev/null
     (export PV_GPU_BENCH_ONLY=pcie PV_GPU_BENCH_LIMIT=60 PV_P11BENCH=0
      timeout 80 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-pcie.txt"
     : > "$OUT/summary-ab.txt"
     for x in a1 b1 a2 b2; do
       (case $x in b*) export PIXELVAULT_CUDA_STAGE_MIN=0 ;; esac
        export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=aes256gcm-1m \
          PV_BENCH_THREADS=1,128,512,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=25
        timeout 60 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
       { echo "== $x"; grep -h '| token' "$OUT/summary.txt"; } >> "$OUT/summary-ab.txt"
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/p11bench.csv" "$OUT/logs.tgz"
     done
     grep -v '^CKM_\|^C_' "$OUT/summary-kat.txt" "$OUT/summary-staged.txt"
     grep -h 'PCIe' "$OUT/summary-pcie.txt"
     cat "$OUT/summary-ab.txt" ;;
  77) export PIXELVAULT_CUDA_STAGE_MIN=1 PV_UNIT_SUITES="" PV_UNIT_LIMIT=230 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="p11_oracle engine_oracle p11_close p11_nothreads" \
       PV_E2E="daemon" PV_E2E_LIMIT=60 PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=80
     timeout 420 bash tests/gpu/run-device --bundle "$B" --phases unit,e2e,stress > /dev/null 2>&1
     grep -v '^CKM_\|^C_' "$OUT/summary.txt" ;;
  78) (export PV_RING_LIMIT=45 PV_GPU_BENCH_ONLY=pcie PV_GPU_BENCH_LIMIT=90 PV_P11BENCH=0
      timeout 150 bash tests/gpu/run-device --bundle "$B" --phases ring,bench > /dev/null 2>&1)
     nvidia-smi -q | grep -i 'addressing' || echo "nvidia-smi -q: no addressing mode line"
     grep -v '^BENCH host-memory\|^BENCH caller-H2D' "$OUT/summary.txt" ;;
  79) export PIXELVAULT_CUDA_STAGE_MIN=1 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_wycheproof engine_pk_wycheproof p11pk_wycheproof p11pk_keyref pk_session" \
       PV_E2E="openssl ssh-login ssh-login-daemon nss gnutls provision pubkey" PV_E2E_LIMIT=160
     exec timeout 400 bash tests/gpu/run-device --bundle "$B" --phases e2e,unit ;;
  80) export PIXELVAULT_CUDA_STAGE_MIN=1 PV_UNIT_SUITES="" PV_UNIT_LIMIT=140 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="p11_fuzz_tmpl" PV_LOAD_SECS=8 PV_LOAD_LIMIT=45 \
       PV_LOAD_CFGS="embedded:cuda:1:64 daemon:cuda:8:8"
     exec timeout 240 bash tests/gpu/run-device --bundle "$B" --phases load,unit ;;
  81) (export PV_RING_LIMIT=45 PV_GPU_BENCH_ONLY=stagecalls PV_GPU_BENCH_LIMIT=60 PV_P11BENCH=0
      timeout 130 bash tests/gpu/run-device --bundle "$B" --phases ring,bench > /dev/null 2>&1)
     grep -h 'rc=\|^BENCH stage-calls' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     cp "$PV_MODULE" /tmp/pv-module-a.so
     for x in a1 b1 ${AB_C:+c1} a2 b2 ${AB_C:+c2}; do
       ab_use $x
       (export PIXELVAULT_CUDA_STAGE_MIN=1 PV_LOAD_SECS=5 PV_LOAD_LIMIT=30 PV_LOAD_CFGS="embedded:cuda:1:64"
        timeout 40 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases load > /dev/null 2>&1)
       echo "== $x load, every request staged"; grep -h 'total\|rc=' "$OUT/summary.txt"
       rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
       (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_OSSL=none PV_BENCH_MECH=aes256gcm-1m \
          PV_BENCH_THREADS=128,1024 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=20
        timeout 45 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       echo "== $x gcm"; grep -h '| token' "$OUT/summary.txt"
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/p11bench.csv" "$OUT/logs.tgz"
     done
     for x in b ${AB_C:+c}; do
       ab_use $x
       (export PIXELVAULT_CUDA_STAGE_MIN=1 PV_UNIT_SUITES="" PV_UNIT_LIMIT=90 PV_UNIT_TIMEOUT_SCALE=1 \
          PV_UNIT_NAMES="p11_wycheproof p11_bad p11pk p11_master" PV_E2E="symmetric" PV_E2E_LIMIT=60
        timeout 170 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases unit,e2e > /dev/null 2>&1)
       echo "== $x checks, every request staged"; grep -v '^CKM_\|^C_' "$OUT/summary.txt"
       rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     done
     ab_use a ;;
  82) (export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 \
        PV_UNIT_NAMES="p11_async p11_close p11_nothreads"
      timeout 220 bash tests/gpu/run-device --bundle "$B" --phases ring,unit > /dev/null 2>&1)
     grep -v '^CKM_\|^C_' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     for n in 64 256 0; do
       (export PV_GPU_BENCH=0 PV_BENCH_MECH=sha3-256-4k,sm3-4k PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 \
          PV_P11BENCH_LIMIT=70 PV_BENCH_THREADS=1,4,8,16
        [ $n != 0 ] && export PV_BENCH_ASYNC=$n
        [ $n = 0 ] && export PV_BENCH_THREADS=1024
        [ $n = 64 ] && export PV_BENCH_OSSL=16 || export PV_BENCH_OSSL=none
        timeout 90 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       echo "== p11bench, async sessions per thread: $n"; grep -h '^| [a-z]' "$OUT/p11bench.txt"
       mv "$OUT/p11bench.csv" "$OUT/p11bench-async-$n.csv" 2>/dev/null
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/logs.tgz"
     done ;;
  83) (export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 \
        PV_UNIT_NAMES="p11_async p11pk p11_close p11_wycheproof" PV_E2E="token-basic openssl" PV_E2E_LIMIT=100
      timeout 360 bash tests/gpu/run-device --bundle "$B" --phases ring,unit,e2e > /dev/null 2>&1)
     grep -v '^CKM_\|^C_' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     for n in 64 0; do
       (export PV_GPU_BENCH=0 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=110 \
          PV_BENCH_MECH=rsa2048-sign,p256-sign,sm2-sign,sha3-256-4k,sm3-4k,aes256gcm-16k
        [ $n != 0 ] && export PV_BENCH_ASYNC=$n PV_BENCH_THREADS=${PV_ASYNC_THREADS:-8,16} PV_BENCH_OSSL=16
        [ $n = 0 ] && export PV_BENCH_THREADS=1024 PV_BENCH_OSSL=none
        timeout 130 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       echo "== p11bench, async sessions per thread: $n"; grep -h '^| [a-z]' "$OUT/p11bench.txt"
       mv "$OUT/p11bench.csv" "$OUT/p11bench-async-$n.csv" 2>/dev/null
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/logs.tgz"
     done ;;
  84) (export PV_GPU_BENCH_ONLY=pcie PV_GPU_BENCH_LIMIT=90 PV_P11BENCH=0
      timeout 120 bash tests/gpu/run-device --bundle "$B" --phases bench > /dev/null 2>&1)
     grep -h 'rc=\|^BENCH' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     for n in 4 16 0; do
       (export PV_GPU_BENCH=0 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=3 PV_P11BENCH_LIMIT=60 \
          PV_BENCH_MECH=aes256gcm-1m PV_BENCH_OSSL=none
        [ $n != 0 ] && export PV_BENCH_ASYNC=$n PV_BENCH_THREADS=8,16
        [ $n = 0 ] && export PV_BENCH_THREADS=1024
        timeout 80 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       echo "== p11bench, async sessions per thread: $n"; grep -h '^| [a-z]' "$OUT/p11bench.txt"
       mv "$OUT/p11bench.csv" "$OUT/p11bench-gcm-async-$n.csv" 2>/dev/null
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/logs.tgz"
     done ;;
  85) ab_ring
     for x in a1 b1 ${AB_C:+c1} a2 b2 ${AB_C:+c2}; do
       ab_use $x
       (export PV_GPU_BENCH=0 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=3 PV_P11BENCH_LIMIT=40 \
          PV_BENCH_MECH=sha3-256-4k,sm3-4k PV_BENCH_ASYNC=64 PV_BENCH_THREADS=8 PV_BENCH_OSSL=none
        timeout 60 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       echo "== $x"; grep -h '^| [a-z]' "$OUT/p11bench.txt" | grep -v mechanism
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/p11bench.csv" "$OUT/logs.tgz"
     done
     for x in b ${AB_C:+c}; do
       ab_use $x
       (export PV_UNIT_SUITES="" PV_UNIT_NAMES="p11_async" PV_UNIT_LIMIT=60
        timeout 80 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases unit > /dev/null 2>&1)
       echo "== $x checks"; grep -h 'rc=' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     done
     ab_use a ;;
  86) ab_ring
     for x in a1 b1 a2 b2; do
       ab_use $x
       echo "== $x"
       for n in 64 0; do
         (export PV_GPU_BENCH=0 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=40 PV_BENCH_OSSL=none
          [ $n != 0 ] && export PV_BENCH_MECH=sha3-256-64,sha3-256-4k,sm3-4k PV_BENCH_ASYNC=64 PV_BENCH_THREADS=8
          [ $n = 0 ] && export PV_BENCH_MECH=p256-sign PV_BENCH_THREADS=1,1024
          timeout 60 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
         grep -h '^| [a-z]' "$OUT/p11bench.txt" | grep -v mechanism
         rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/p11bench.csv" "$OUT/logs.tgz"
       done
     done
     b_suites "p11_async p11_close p11pk p11_wycheproof" 150 ;;
  87) (export PV_KAT_LIMIT=60 PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 \
        PV_UNIT_NAMES="p11_async p11_close p11pk p11_wycheproof p11_bad engine_oracle" \
        PV_E2E="token-basic openssl daemon" PV_E2E_LIMIT=150 \
        PV_STRESS_SECS=30 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=70
      timeout 480 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,e2e,stress > /dev/null 2>&1)
     grep -h 'rc=' "$OUT/summary.txt"
     rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     for n in 64 0; do
       (export PV_GPU_BENCH=0 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=60
        [ $n != 0 ] && export PV_BENCH_MECH=sha3-256-64,sha3-256-4k,sm3-4k PV_BENCH_ASYNC=64 \
          PV_BENCH_THREADS=8 PV_BENCH_OSSL=16
        [ $n = 0 ] && export PV_BENCH_MECH=p256-sign,rsa2048-sign PV_BENCH_THREADS=1,1024 PV_BENCH_OSSL=none
        timeout 80 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       echo "== p11bench, async sessions per thread: $n"; grep -h '^| [a-z]' "$OUT/p11bench.txt" | grep -v mechanism
       mv "$OUT/p11bench.csv" "$OUT/p11bench-claims-$n.csv" 2>/dev/null
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/logs.tgz"
     done ;;
  88) (export PV_RING_LIMIT=45 PV_E2E="token-basic openssl daemon symmetric pubkey" PV_E2E_LIMIT=200
      timeout 280 bash tests/gpu/run-device --bundle "$B" --phases ring,e2e > /dev/null 2>&1)
     grep -h 'rc=\|subtests\|FAIL' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz" ;;
  89) (export PV_RING_LIMIT=45 PV_GPU_BENCH=0 PV_P11BENCH=0
      timeout 80 bash tests/gpu/run-device --bundle "$B" --phases ring > /dev/null 2>&1)
     grep -h 'rc=' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     for cfg in 8:64 4:128 12:64 8:32; do
       (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_MECH=sha3-256-4k,sha3-256-64,sm3-4k \
          PV_BENCH_THREADS=${cfg%%:*} PV_BENCH_ASYNC=${cfg##*:} PV_BENCH_TOP=1 PV_BENCH_SECS=2 \
          PV_BENCH_OSSL=none PV_BENCH_GPU_SLOTS=2048 PV_P11BENCH_LIMIT=30
        timeout 120 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       echo "== async $cfg (threads:sessions)"; grep -v '^CKM_\|^C_\|mechanism' "$OUT/summary.txt"
       rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     done ;;
  90) ab_ring
     for x in a1 b1 a2 b2; do
       ab_use $x
       echo "== $x"
       for cfg in 8:64:sha3-256-4k,sha3-256-64 12:64:sha3-256-4k; do
         (export PV_GPU_BENCH=0 PV_BENCH_SPLIT=1 PV_BENCH_MECH=${cfg##*:} PV_BENCH_THREADS=${cfg%%:*} \
            PV_BENCH_ASYNC=$(echo $cfg | cut -d: -f2) PV_BENCH_SECS=2 PV_BENCH_OSSL=none \
            PV_BENCH_GPU_SLOTS=2048 PV_P11BENCH_LIMIT=30
          timeout 100 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
         grep -h '^| [a-z]\|^  notify\|^  async split' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
       done
       (export PV_GPU_BENCH=0 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=60 PV_BENCH_OSSL=none \
          PV_BENCH_MECH=sha3-256-4k,p256-sign PV_BENCH_THREADS=1,1024
        timeout 80 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
       grep -h '^| [a-z]' "$OUT/p11bench.txt" | grep -v mechanism
       rm -f "$OUT/summary.txt" "$OUT/p11bench.txt" "$OUT/p11bench.csv" "$OUT/logs.tgz"
     done
     b_suites "p11_async p11_close p11pk" 120 ;;
  91) (export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=100 PV_UNIT_NAMES="p11_async p11pk p11_close" \
        PV_GPU_BENCH=0 PV_BENCH_GPU_SLOTS=2048 PV_BENCH_SECS=2 PV_P11BENCH_LIMIT=100 PV_BENCH_ASYNC=64 \
        PV_BENCH_MECH=sha3-256-4k,sm3-4k,sha3-256-64,aes256gcm-16k,p256-sign PV_BENCH_THREADS=8,12 PV_BENCH_OSSL=16
      timeout 200 bash tests/gpu/run-device --bundle "$B" --phases ring,unit,bench > /dev/null 2>&1)
     for f in summary p11bench logs; do
       for e in txt csv tgz; do [ -f "$OUT/$f.$e" ] && mv "$OUT/$f.$e" "$OUT/$f-async.$e"; done
     done
     grep -v '^CKM_\|^C_\|^|' "$OUT/summary-async.txt"
     echo "== p11bench, 64 async sessions a thread"; grep -h '^| [a-z]' "$OUT/p11bench-async.txt"
     (export PV_STRESS_SECS=60 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=90 PV_GPU_BENCH=0 PV_BENCH_SECS=2 \
        PV_BENCH_THREADS=${PV_SWEEP_THREADS:-1,16,128,512,1024} PV_BENCH_GPU_SLOTS=2048 PV_P11BENCH_LIMIT=260
      timeout 360 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases stress,bench > /dev/null 2>&1)
     for f in summary p11bench logs; do
       for e in txt csv tgz; do [ -f "$OUT/$f.$e" ] && mv "$OUT/$f.$e" "$OUT/$f-release.$e"; done
     done
     grep -v '^CKM_\|^C_' "$OUT/summary-release.txt" ;;
  93) export PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=200 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="p11_vsig p11_async p11_bad p11_nothreads pk_general pk_session p11pk_keyref" \
       PV_E2E="token-basic symmetric pubkey openssl ssh-login ssh-login-daemon nss gnutls daemon provision" \
       PV_E2E_LIMIT=300
     exec timeout 570 bash tests/gpu/run-device --bundle "$B" --phases ring,e2e,unit ;;
  94) (export PV_RING_LIMIT=45 PV_GPU_BENCH=0 PV_P11BENCH=0
      timeout 80 bash tests/gpu/run-device --bundle "$B" --phases ring > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-ring.txt"
     ab_swap rsa2048-sign,p256-sign 1,1024 "${AB_LIMIT:-25}"
     b_suites "p11pk pk_general p11_vsig" 120
     cat "$OUT/summary-ring.txt" "$OUT/summary-ab.txt" ;;
  95) (export PV_KAT_LIMIT=40 PV_RING_LIMIT=45 PV_UNIT_SUITES="" PV_UNIT_LIMIT=150 PV_UNIT_TIMEOUT_SCALE=1 \
       PV_UNIT_NAMES="engine_pk engine_oracle p11pk pk_general p11_vsig" \
       PV_STRESS_SECS=20 PV_STRESS_THREADS=64 PV_STRESS_LIMIT=60 \
       PV_GPU_BENCH_ONLY=${PLAN_GPU_BENCH:-mm,sig} PV_GPU_BENCH_LIMIT=60 PV_P11BENCH=0
      timeout 400 bash tests/gpu/run-device --bundle "$B" --phases kat,ring,unit,stress,bench > /dev/null 2>&1)
     mv "$OUT/summary.txt" "$OUT/summary-a.txt"
     ab_swap rsa2048-sign,p256-sign 1,1024 "${AB_LIMIT:-25}"
     cat "$OUT/summary-a.txt" "$OUT/summary-ab.txt" ;;
  96) (export PV_KAT_LIMIT=60 PV_GPU_BENCH=0 PV_P11BENCH=0
      timeout 130 bash tests/gpu/run-device --bundle "$B" --phases kat > /dev/null 2>&1)
     grep -h 'rc=' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     cp "$PV_MODULE" /tmp/pv-module-a.so
     for x in a ${AB_B:+b} ${AB_C:+c} ${AB_B:+a2}; do
       ab_use $x
       o=none; [ $x = a ] && o=16
       echo "== $x"; async_rows sha3-256-4k,sm3-4k "${AB_THREADS:-8,12,16}" $o
       mv "$OUT/summary.txt" "$OUT/summary-$x.txt"; mv "$OUT/logs.tgz" "$OUT/logs-$x.tgz" 2>/dev/null
     done
     ab_use a ;;
  97) rm -rf /tmp/pvperf && mkdir -p /tmp/pvperf && tar -C /tmp/pvperf -xJf build-perf/perf.tar.xz
     export PV_PERF=/tmp/pvperf/perf.sh
     "$PV_PERF" stat -e cpu-clock true 2>&1 | grep -i "cpu-clock\|error\|denied\|not" | head -3
     ab_ring
     for x in a ${AB_B:+b}; do
       ab_use $x
       # (run 215: 1.2 s in, perf saw the vault's open - page faults of
       # the pinned ring in the kernel - not the row)
       ASYNC_SECS=6 PV_BENCH_PERF=4 async_rows sha3-256-4k 12 none > /dev/null
       echo "== perf $x"; grep -v '^CKM_\|^C_' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     done
     for x in a1 ${AB_B:+b1} ${AB_C:+c1} ${AB_B:+a2} ${AB_B:+b2} ${AB_C:+c2}; do
       ab_use $x
       echo "== $x"; async_rows "${AB_MECH:-sha3-256-4k,sm3-4k}" "${AB_THREADS:-8,12,16}" none
       rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     done
     if [ -n "${AB_B:-}" ]; then
       ab_use b
       (export PV_UNIT_SUITES="" PV_UNIT_NAMES="p11_async p11_close p11pk" PV_UNIT_LIMIT=90
        timeout 110 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases unit > /dev/null 2>&1)
       echo "== b checks"; grep -h 'rc=' "$OUT/summary.txt"; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
       ab_use a
     fi ;;
  98) ab_ring
     ab_use b
     echo "== b async"; async_rows sha3-256-4k,sm3-4k 8,12,16 16
     mv "$OUT/summary.txt" "$OUT/summary-b-async.txt"; mv "$OUT/logs.tgz" "$OUT/logs-b-async.tgz"
     for x in b a; do
       ab_use $x
       echo "== $x plain"; plain_rows rsa2048-sign,p256-sign 1,1024
     done
     ab_use b
     stress30 b
     ab_use a ;;
  101) ab_ring
     (export PV_GPU_BENCH_ONLY=pcie PV_GPU_BENCH_LIMIT=60 PV_P11BENCH=0
      timeout 90 bash tests/gpu/run-device --bundle /tmp/pv-bundle --phases bench > /dev/null 2>&1)
     grep -h 'pcie\|PCIe\|GB/s' "$OUT/summary.txt" | head -8; rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     for x in a b a2 b2; do
       ab_use $x
       echo "== $x cuda"; plain_rows aes256gcm-1m 512,1024
     done
     ab_use a ;;
  99) ab_ring
     for x in a b a2 b2; do
       ab_use $x
       o=none; [ $x = a ] && o=16
       echo "== $x async"; async_rows sha3-256-4k,sm3-4k 8,12,16 $o
       rm -f "$OUT/summary.txt" "$OUT/logs.tgz"
     done
     for x in a b a2 b2; do
       ab_use $x
       echo "== $x cpu"; PV_DEVICE_BACKEND=cpu plain_rows sha3-256-4k,p256-sign 16,64
     done
     ab_use a
     stress30 a ;;
  100) ab_ring
     for x in a b a2 b2; do
       ab_use $x
       o=none; [ $x = a ] && o=1,16
       echo "== $x cpu"
       PV_DEVICE_BACKEND=cpu plain_rows rsa2048-sign,p256-sign,sha256-4k,aes256gcm-1m 1,16 $o
     done
     ab_use b
     echo "== b cuda"; plain_rows rsa2048-sign,p256-sign,sha256-4k,aes256gcm-1m 1,1024
     stress30 b
     ab_use a ;;
  102) ab_ring
     for x in a b a2 b2; do
       ab_use $x
       o=none; [ $x = a ] && o=1,16
       echo "== $x cpu"
       PV_DEVICE_BACKEND=cpu plain_rows p256-sign,sm2-sign,sha3-256-4k,rsa2048-sign 1,16 $o
     done
     ab_use a
     echo "== a cuda"; plain_rows p256-sign,sm2-sign,sha3-256-4k 1,1024
     stress30 a ;;
  *) sed -n '2,/^# PV_BUNDLE/p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
