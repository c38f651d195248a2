/*
 * test_ed_vectors.c - Ed25519 known-answer tests:
 *   - RFC 8032 section 7.1 (TEST 1, 2, 3, 1024, SHA(abc)), transcribed from
 *     the RFC; each vector is also cross-checked against OpenSSL, so a
 *     transcription error cannot pass silently;
 *   - RFC 8032 section 7.2 (Ed25519ctx, 4 vectors) and 7.3 (Ed25519ph,
 *     TEST abc); OpenSSL 3.0 has neither variant, test_ed_arith.c checks
 *     them against a BN reference signer as well;
 *   - Wycheproof ed25519_test.json (tests/vectors/wycheproof): every valid
 *     case must verify and every invalid one must be rejected; for valid
 *     cases whose private key is published (Wycheproof's earlier
 *     testvectors/eddsa_test.json, generator 0.8r8, lists "sk" next to
 *     "pk"; table below, each checked against OpenSSL's key derivation)
 *     signing must reproduce the exact signature.  Valid cases whose key
 *     has no published private key are counted separately, never as signed.
 */
#include "ed_test.h"
#include "gpu/core/ec/ed25519/kc_ed25519.h"
#include "gpu/core/pv_err.h"

typedef struct rfc_vec {
	const char *name, *sk, *pk, *msg, *sig;
} rfc_vec;

/* RFC 8032, 7.1 "Test Vectors for Ed25519" (SECRET KEY, PUBLIC KEY,
 * MESSAGE, SIGNATURE). */
static const rfc_vec rfc[] = {
	{ "TEST 1",
	  "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	  "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	  "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ "TEST 2",
	  "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
	  "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
	  "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ "TEST 3",
	  "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	  "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
	  "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
	{ "TEST 1024",
	  "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
	  "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
	  "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98"
	  "fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8"
	  "79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
	  "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc"
	  "1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe"
	  "ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
	  "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbef"
	  "efd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7"
	  "aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
	  "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2"
	  "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24"
	  "554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
	  "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc"
	  "2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b07"
	  "07e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
	  "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51a"
	  "ddd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429e"
	  "c96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
	  "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c"
	  "42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8"
	  "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
	  "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08"
	  "d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649"
	  "de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
	  "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a3"
	  "2ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e"
	  "6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
	  "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b5"
	  "0d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1"
	  "369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
	  "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c"
	  "0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0",
	  "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350"
	  "aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03" },
	{ "TEST SHA(abc)",
	  "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	  "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	  "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
	  "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704" },
};

static void test_rfc8032(void)
{
	size_t i, n, sklen, pklen, mlen, siglen;
	unsigned bad = 0;

	for (i = 0; i < sizeof rfc / sizeof rfc[0]; i++) {
		uint8_t *sk = ts_unhex(rfc[i].sk, &sklen);
		uint8_t *pk = ts_unhex(rfc[i].pk, &pklen);
		uint8_t *msg = ts_unhex(rfc[i].msg, &mlen);
		uint8_t *sig = ts_unhex(rfc[i].sig, &siglen);
		uint8_t pub[32], s[64], opub[32], t[64], *m2;
		unsigned b0 = bad;

		CU_ASSERT_FATAL(sk && pk && msg && sig && sklen == 32 && pklen == 32 && siglen == 64);
		/* the transcription agrees with OpenSSL */
		CU_ASSERT(ossl_pub(sk, opub) == 0 && memcmp(opub, pk, 32) == 0);
		CU_ASSERT(ossl_verify(pk, msg, mlen, sig, 64) == 1);

		bad += kc_ed25519_pubkey(sk, pub) != 0 || memcmp(pub, pk, 32) != 0;
		bad += kc_ed25519_sign(sk, pk, msg, mlen, s) != 0 || memcmp(s, sig, 64) != 0;
		bad += kc_ed25519_sign(sk, NULL, msg, mlen, s) != 0 || memcmp(s, sig, 64) != 0;
		bad += kc_ed25519_verify(pk, msg, mlen, sig, 64) != 0;
		/* one flipped bit anywhere in R, S, the message or the key fails */
		for (n = 0; n < 512; n += 37) {
			memcpy(t, sig, 64);
			t[n / 8] ^= (uint8_t)(1u << (n % 8));
			bad += kc_ed25519_verify(pk, msg, mlen, t, 64) == 0;
		}
		if (mlen) {
			m2 = (uint8_t *)malloc(mlen);
			memcpy(m2, msg, mlen);
			m2[mlen / 2] ^= 0x01;
			bad += kc_ed25519_verify(pk, m2, mlen, sig, 64) != PV_ERR_SIG_INVALID;
			bad += kc_ed25519_verify(pk, msg, mlen - 1, sig, 64) != PV_ERR_SIG_INVALID;
			free(m2);
		}
		memcpy(pub, pk, 32);
		pub[5] ^= 0x20;
		{
			int rc = kc_ed25519_verify(pub, msg, mlen, sig, 64);
			bad += rc != PV_ERR_SIG_INVALID && rc != PV_ERR_PUBKEY;
		}
		printf("\n    RFC 8032 %s (%zu-byte message): %s", rfc[i].name, mlen,
		       bad == b0 ? "ok" : "FAILED");
		free(sk); free(pk); free(msg); free(sig);
	}
	printf("\n    RFC 8032 7.1: %zu vectors, %u failed checks\n",
	       sizeof rfc / sizeof rfc[0], bad);
	CU_ASSERT_EQUAL(bad, 0);
}

/* RFC 8032 7.2 (Ed25519ctx) and 7.3 (Ed25519ph): SECRET KEY, PUBLIC KEY,
 * MESSAGE, CONTEXT, SIGNATURE. */
typedef struct rfc_var {
	uint32_t mode;
	const char *sk, *pk, *msg, *ctx, *sig;
} rfc_var;

static const rfc_var rfcv[] = {
	{ KC_ED25519_CTX,
	  "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
	  "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
	  "f726936d19c800494e3fdaff20b276a8", "666f6f",
	  "55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a"
	  "8b36950b95130022907a7fb7c4e9b2d5f6cca685a587b4b21f4b888e4e7edb0d" },
	{ KC_ED25519_CTX,
	  "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
	  "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
	  "f726936d19c800494e3fdaff20b276a8", "626172",
	  "fc60d5872fc46b3aa69f8b5b4351d5808f92bcc044606db097abab6dbcb1aee3"
	  "216c48e8b3b66431b5b186d1d28f8ee15a5ca2df6668346291c2043d4eb3e90d" },
	{ KC_ED25519_CTX,
	  "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
	  "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
	  "508e9e6882b979fea900f62adceaca35", "666f6f",
	  "8b70c1cc8310e1de20ac53ce28ae6e7207f33c3295e03bb5c0732a1d20dc6490"
	  "8922a8b052cf99b7c4fe107a5abb5b2c4085ae75890d02df26269d8945f84b0b" },
	{ KC_ED25519_CTX,
	  "ab9c2853ce297ddab85c993b3ae14bcad39b2c682beabc27d6d4eb20711d6560",
	  "0f1d1274943b91415889152e893d80e93275a1fc0b65fd71b4b0dda10ad7d772",
	  "f726936d19c800494e3fdaff20b276a8", "666f6f",
	  "21655b5f1aa965996b3f97b3c849eafba922a0a62992f73b3d1b73106a84ad85"
	  "e9b86a7b6005ea868337ff2d20a7f5fbd4cd10b0be49a68da2b2e0dc0ad8960f" },
	{ KC_ED25519_PH,
	  "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	  "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	  "616263", "",
	  "98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae41"
	  "31f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406" },
};

static void test_rfc8032_variants(void)
{
	size_t i, n, mlen, clen;
	unsigned bad = 0;

	for (i = 0; i < sizeof rfcv / sizeof rfcv[0]; i++) {
		uint8_t *sk = ts_unhex(rfcv[i].sk, &n), *pk = ts_unhex(rfcv[i].pk, &n);
		uint8_t *msg = ts_unhex(rfcv[i].msg, &mlen), *ctx = ts_unhex(rfcv[i].ctx, &clen);
		uint8_t *sig = ts_unhex(rfcv[i].sig, &n), pub[32], s[64], other[3] = { 'b', 'a', 'z' };
		uint32_t mode = rfcv[i].mode, wrong = mode == KC_ED25519_CTX ? KC_ED25519_PH : KC_ED25519_CTX;
		unsigned b0 = bad;

		bad += kc_ed25519_pubkey(sk, pub) != 0 || memcmp(pub, pk, 32) != 0;
		bad += kc_ed25519_sign_ex(sk, pk, mode, ctx, clen, msg, mlen, s) != 0 ||
		       memcmp(s, sig, 64) != 0;
		bad += kc_ed25519_sign_ex(sk, NULL, mode, ctx, clen, msg, mlen, s) != 0 ||
		       memcmp(s, sig, 64) != 0;
		bad += kc_ed25519_verify_ex(pk, mode, ctx, clen, msg, mlen, sig, 64) != 0;
		/* bound to the variant, the context and the message */
		bad += kc_ed25519_verify(pk, msg, mlen, sig, 64) != PV_ERR_SIG_INVALID;
		bad += kc_ed25519_verify_ex(pk, wrong, ctx, clen, msg, mlen, sig, 64) != PV_ERR_SIG_INVALID;
		bad += kc_ed25519_verify_ex(pk, mode, other, 3, msg, mlen, sig, 64) != PV_ERR_SIG_INVALID;
		bad += kc_ed25519_verify_ex(pk, mode, ctx, clen, msg, mlen - 1, sig, 64) != PV_ERR_SIG_INVALID;
		printf("\n    RFC 8032 %s vector %zu: %s", mode == KC_ED25519_CTX ? "7.2 Ed25519ctx" :
		       "7.3 Ed25519ph", i + 1, bad == b0 ? "ok" : "FAILED");
		free(sk); free(pk); free(msg); free(ctx); free(sig);
	}
	printf("\n    RFC 8032 7.2/7.3: %zu vectors, %u failed checks\n",
	       sizeof rfcv / sizeof rfcv[0], bad);
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_variant_args(void)
{
	uint8_t seed[32] = { 1 }, pub[32], sig[64], m[64] = { 0 }, c[256] = { 0 };
	CU_ASSERT(kc_ed25519_pubkey(seed, pub) == 0);
	CU_ASSERT(kc_ed25519_sign_ex(seed, pub, 3, c, 1, m, 1, sig) == PV_ERR_MECH_PARAM);
	CU_ASSERT(kc_ed25519_sign_ex(seed, pub, KC_ED25519_CTX, c, 256, m, 1, sig) == PV_ERR_MECH_PARAM);
	CU_ASSERT(kc_ed25519_sign_ex(seed, pub, KC_ED25519_PH_DIGEST, c, 0, m, 63, sig) == PV_ERR_DATA_LEN);
	CU_ASSERT(kc_ed25519_sign_ex(seed, pub, KC_ED25519_CTX, NULL, 1, m, 1, sig) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_sign_ex(seed, pub, KC_ED25519_CTX, c, 1, NULL, 1, sig) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_sign_ex(NULL, pub, KC_ED25519_CTX, c, 1, m, 1, sig) == PV_ERR_ARGS);
	/* 255-byte context, empty context, empty message: all accepted */
	CU_ASSERT(kc_ed25519_sign_ex(seed, pub, KC_ED25519_CTX, c, 255, m, 1, sig) == 0);
	CU_ASSERT(kc_ed25519_verify_ex(pub, KC_ED25519_CTX, c, 255, m, 1, sig, 64) == 0);
	CU_ASSERT(kc_ed25519_verify_ex(pub, KC_ED25519_CTX, c, 254, m, 1, sig, 64) == PV_ERR_SIG_INVALID);
	CU_ASSERT(kc_ed25519_sign_ex(seed, pub, KC_ED25519_CTX, NULL, 0, NULL, 0, sig) == 0);
	CU_ASSERT(kc_ed25519_verify_ex(pub, KC_ED25519_CTX, NULL, 0, NULL, 0, sig, 64) == 0);
	CU_ASSERT(kc_ed25519_verify(pub, NULL, 0, sig, 64) == PV_ERR_SIG_INVALID);
	CU_ASSERT(kc_ed25519_verify_ex(pub, KC_ED25519_CTX, NULL, 0, NULL, 0, sig, 63) == PV_ERR_SIG_LEN);
	CU_ASSERT(kc_ed25519_verify_ex(pub, 7, NULL, 0, NULL, 0, sig, 64) == PV_ERR_MECH_PARAM);
}

/* Wycheproof key pairs with published private keys: testvectors/eddsa_test.json
 * of google/wycheproof (C2SP/wycheproof), generatorVersion 0.8r8, "key" {pk, sk}. */
static const char *const wp_keys[][2] = {
	{ "7d4d0e7f6153a69b6242b522abbee685fda4420f8834b108c3bdae369ef549fa", "add4bb8103785baf9ac534258e8aaf65f5f1adb5ef5f3df19bb80ab989c4d64b" },
	{ "a12c2beb77265f2aac953b5009349d94155a03ada416aad451319480e983ca4c", "0a23a20072891237aa0864b5765139514908787878cd77135a0059881d313f00" },
	{ "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60" },
	{ "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb" },
	{ "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7" },
	{ "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e", "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5" },
	{ "8fd659b77b558ed93882c1157438450ac86ec62d421d568e98ee236f3810295a", "d7ad3f1f6bbe0477c3c357a806a19eb41ae3f94025035bc87f281f8ee9fc0e34" },
	{ "2a606bf67ac770c607038b004101b325edb569efd3413d2d1f2c3e6b4e6e3082", "ad9b22793336fcdac10e136c4deea599be187a38eef91c1cf7c7a4ec884dda08" },
	{ "c9c946cbc5544ac74eef491f07c5881c16faf7ec31ce4aa91bb60ae7b4539051", "04a6553d68a9baef78a2175af375458eaa01cdb77350c61e282ef5f0c7116599" },
	{ "32ad026f693d0d2afe7f4388d91c4c964426fcb9e3665c3ebd8650009b815c8e", "c367c8d2ebeeecd70c1e8985b70c3808b75657f243b21ba4f322792540e92257" },
	{ "c29ec1894e06d27b4e40486b4fa5063d66a746c7f9c323b12203c03b72b8b78a", "56c1e22d616cbb6dea869288b4b1c02bb98696583c2f6e650013a03e17049c62" },
	{ "cfda5b899e35764c5229e59295fe1222b7ddce176643697c29e46ecbba10cf10", "b7d2f64276df417fed27d8e15b4e90f6fd93dace707294c338bd32bc4bbd8fdb" },
	{ "529919c9c780985a841c42ba6c180ff2d67a276ccfbe281080e47ab71a758f56", "7d597c3b7283929d07ed8f01f31d2596823e5e46ab226c7be4234d1a9dcaef37" },
	{ "2252b3d57c74cbf8bc460dc2e082847926bc022f09ab6ae95756362bfd1167c1", "f401cee4bfb1732f0e9b8d8ba79469565c3115296141dbdf7e9c311a0ac1823b" },
	{ "c0a773110f975de3732355bb7ec7f0c41c091c0252966070205516693b992a4a", "3d658956410377d0644676d2599542412a4f3b0e4eadfb7f3f836615f42b18bc" },
	{ "54cda623245759ad6d43e620a606908befc633d60792bc7798447a0ef38e7311", "bccb61323840c2a96fc36f7e54ea6c8e55f9d221f7f05791ed60025e06064439" },
	{ "2362bac514d5fad33802642e979a1e82de6eb6f1bcbf6a5b304f2bb02b9e57fe", "f2d3023b9c19e241748bc4039a7a43c595701f23675505015213a8a2a0274c1b" },
	{ "037b55b427dc8daa0f80fcebaf0846902309f8a6cf18b465c0ce9b6539629ac8", "12fc31c40d5a7af71e05424623ba970b670cf6ecb44cda6120210e6370245ddb" },
};

static void test_wp_keys(void)
{
	size_t i, n;
	unsigned bad = 0;
	for (i = 0; i < sizeof wp_keys / sizeof wp_keys[0]; i++) {
		uint8_t *pk = ts_unhex(wp_keys[i][0], &n), *sk = ts_unhex(wp_keys[i][1], &n);
		uint8_t a[32], b[32];
		bad += kc_ed25519_pubkey(sk, a) != 0 || memcmp(a, pk, 32) != 0;
		bad += ossl_pub(sk, b) != 0 || memcmp(b, pk, 32) != 0;
		free(pk);
		free(sk);
	}
	printf("\n    Wycheproof key pairs: %zu, %u bad\n", sizeof wp_keys / sizeof wp_keys[0], bad);
	CU_ASSERT_EQUAL(bad, 0);
}

typedef struct wp_count {
	int verified_valid, rejected_invalid, signed_exact, valid_no_sk, ossl_agree;
} wp_count;

static int wp_case(const ts_wp_case *tc, void *arg)
{
	wp_count *c = (wp_count *)arg;
	size_t pklen = 0, mlen = 0, slen = 0, i;
	uint8_t *pk = NULL, *msg = ts_wp_hex(tc, "msg", &mlen), *sig = ts_wp_hex(tc, "sig", &slen);
	json_object *pko;
	int rc, fail = 0, ok;

	if (json_object_object_get_ex(tc->group, "publicKey", &pko)) {
		json_object *v;
		if (json_object_object_get_ex(pko, "pk", &v))
			pk = ts_unhex(json_object_get_string(v), &pklen);
	}
	if (!pk || pklen != 32 || !msg || !sig) {
		fail = 1;
		goto out;
	}
	rc = kc_ed25519_verify(pk, msg, mlen, sig, slen);
	ok = ossl_verify(pk, msg, mlen, sig, slen);
	if (ts_wp_valid(tc)) {
		if (rc != 0)
			fail = 1;
		else
			c->verified_valid++;
		/* sign with the private key, when one is published */
		for (i = 0; i < sizeof wp_keys / sizeof wp_keys[0]; i++) {
			size_t n;
			uint8_t *kp = ts_unhex(wp_keys[i][0], &n);
			int match = memcmp(kp, pk, 32) == 0;
			free(kp);
			if (match) {
				uint8_t *sk = ts_unhex(wp_keys[i][1], &n), s[64];
				if (kc_ed25519_sign(sk, pk, msg, mlen, s) == 0 && slen == 64 &&
				    memcmp(s, sig, 64) == 0)
					c->signed_exact++;
				else
					fail = 1;
				free(sk);
				break;
			}
		}
		if (i == sizeof wp_keys / sizeof wp_keys[0])
			c->valid_no_sk++;
	} else if (ts_wp_invalid(tc)) {
		/* rejected, with the documented codes: the keys of this file
		 * are valid, so never PV_ERR_PUBKEY */
		if (rc != PV_ERR_SIG_INVALID && rc != PV_ERR_SIG_LEN)
			fail = 1;
		else if ((slen == 64) != (rc == PV_ERR_SIG_INVALID))
			fail = 1;
		else
			c->rejected_invalid++;
	} else {
		fail = 1;             /* this file has no "acceptable" cases */
	}
	c->ossl_agree += ok == (rc == 0);
	if (fail)
		printf("\n    tcId %d (%s): verify rc %d\n", tc->tc_id, tc->comment ? tc->comment : "", rc);
out:
	free(pk);
	free(msg);
	free(sig);
	return fail;
}

static void test_wycheproof(void)
{
	ts_wp_stats st;
	wp_count c;
	memset(&st, 0, sizeof st);
	memset(&c, 0, sizeof c);
	CU_ASSERT_FATAL(ts_wp_run("ed25519_test.json", wp_case, &c, &st) == 0);
	printf("\n    ed25519_test.json: %d cases (%d valid, %d invalid, %d acceptable), "
	       "%d failed, %d skipped\n", st.total, st.valid, st.invalid, st.acceptable,
	       st.failed, st.skipped);
	printf("    valid verified %d; invalid rejected %d; valid re-signed exactly %d "
	       "(%d valid cases have no published private key: verify only); "
	       "OpenSSL agrees on %d\n", c.verified_valid, c.rejected_invalid,
	       c.signed_exact, c.valid_no_sk, c.ossl_agree);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
	CU_ASSERT(st.total >= 150);
	CU_ASSERT_EQUAL(c.verified_valid, st.valid);
	CU_ASSERT_EQUAL(c.rejected_invalid, st.invalid);
	CU_ASSERT_EQUAL(c.signed_exact + c.valid_no_sk, st.valid);
	CU_ASSERT(c.signed_exact >= 51);
}

int main(void)
{
	static const ed_test t[] = {
		{ "RFC 8032 7.1 vectors", test_rfc8032 },
		{ "RFC 8032 7.2 / 7.3 vectors (ctx, ph)", test_rfc8032_variants },
		{ "Ed25519ctx/ph arguments", test_variant_args },
		{ "Wycheproof key pairs", test_wp_keys },
		{ "Wycheproof ed25519_test.json", test_wycheproof },
	};
	return ed_run("core_ed vectors", t, sizeof t / sizeof t[0]);
}
