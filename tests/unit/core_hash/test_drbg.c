/*
 * test_drbg.c - HMAC_DRBG-SHA-256 of gpu/core/hash against NIST CAVP vectors.
 *
 * Vectors are transcribed from the CAVP "drbgvectors" text files
 * (NIST SP 800-90A DRBG validation, DRBGVS; HMAC_DRBG.rsp, section
 * [SHA-256], [PredictionResistance = False], [EntropyInputLen = 256],
 * [NonceLen = 128], [ReturnedBitsLen = 1024]):
 *   drbgvectors_no_reseed/HMAC_DRBG.rsp - instantiate, generate, generate;
 *   drbgvectors_pr_false/HMAC_DRBG.rsp  - instantiate, reseed, generate,
 *                                         generate.
 * The second generate's 128 bytes are ReturnedBits.  Where the .rsp text
 * prints the intermediate (Key, V) after each step ("** INSTANTIATE:",
 * "** RESEED:", "** GENERATE (FIRST CALL):" ...), they are checked too.
 * Source: NIST CAVP, "DRBG Test Vectors" (drbgtestvectors.zip, SP 800-90A
 * DRBGVS), Cryptographic Algorithm Validation Program, csrc.nist.gov.
 */
#include "th_common.h"
#include "tsupport.h"

#include "gpu/core/hash/kc_drbg.h"

typedef struct drbg_kat {
	const char *name;
	const char *entropy, *nonce, *pers;
	const char *reseed_entropy, *reseed_add;     /* NULL: no reseed */
	const char *add1, *add2;
	const char *returned;
	/* optional intermediate states (NULL: not printed in the source) */
	const char *k_inst, *v_inst, *k_reseed, *v_reseed, *k_gen1, *v_gen1, *k_gen2, *v_gen2;
} drbg_kat;

static const drbg_kat kats[] = {
	/* no_reseed, [PersonalizationStringLen = 0], [AdditionalInputLen = 0] */
	{ "no_reseed pers=0 add=0 COUNT=0",
	  "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488",
	  "659ba96c601dc69fc902940805ec0ca8", "", NULL, NULL, "", "",
	  "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
	  "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
	  "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
	  "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8",
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "no_reseed pers=0 add=0 COUNT=1",
	  "79737479ba4e7642a221fcfd1b820b134e9e3540a35bb48ffae29c20f5418ea3",
	  "3593259c092bef4129bc2c6c9e19f343", "", NULL, NULL, "", "",
	  "cf5ad5984f9e43917aa9087380dac46e410ddc8a7731859c84e9d0f31bd43655"
	  "b924159413e2293b17610f211e09f770f172b8fb693a35b85d3b9e5e63b1dc25"
	  "2ac0e115002e9bedfb4b5b6fd43f33b8e0eafb2d072e1a6fee1f159df9b51e6c"
	  "8da737e60d5032dd30544ec51558c6f080bdbdab1de8a939e961e06b5f1aca37",
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	/* no_reseed, [PersonalizationStringLen = 0], [AdditionalInputLen = 256] */
	{ "no_reseed pers=0 add=256 COUNT=0",
	  "d3cc4d1acf3dde0c4bd2290d262337042dc632948223d3a2eaab87da44295fbd",
	  "0109b0e729f457328aa18569a9224921", "", NULL, NULL,
	  "3c311848183c9a212a26f27f8c6647e40375e466a0857cc39c4e47575d53f1f6",
	  "fcb9abd19ccfbccef88c9c39bfb3dd7b1c12266c9808992e305bc3cff566e4e4",
	  "9c7b758b212cd0fcecd5daa489821712e3cdea4467b560ef5ddc24ab47749a1f"
	  "1ffdbbb118f4e62fcfca3371b8fbfc5b0646b83e06bfbbab5fac30ea09ea2bc7"
	  "6f1ea568c9be0444b2cc90517b20ca825f2d0eccd88e7175538b85d90ab39018"
	  "3ca6395535d34473af6b5a5b88f5a59ee7561573337ea819da0dcc3573a22974",
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "no_reseed pers=0 add=256 COUNT=1",
	  "f97a3cfd91faa046b9e61b9493d436c4931f604b22f1081521b3419151e8ff06",
	  "11f3a7d43595357d58120bd1e2dd8aed", "", NULL, NULL,
	  "517289afe444a0fe5ed1a41dbbb5eb17150079bdd31e29cf2ff30034d8268e3b",
	  "88028d29ef80b4e6f0fe12f91d7449fe75062682e89c571440c0c9b52c42a6e0",
	  "c6871cff0824fe55ea7689a52229886730450e5d362da5bf590dcf9acd67fed4"
	  "cb32107df5d03969a66b1f6494fdf5d63d5b4d0d34ea7399a07d0116126d0d51"
	  "8c7c55ba46e12f62efc8fe28a51c9d428e6d371d7397ab319fc73ded4722e5b4"
	  "f30004032a6128df5e7497ecf82ca7b0a50e867ef6728a4f509a8c859087039c",
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	/* pr_false, [PersonalizationStringLen = 0], [AdditionalInputLen = 0] */
	{ "pr_false pers=0 add=0 COUNT=0",
	  "06032cd5eed33f39265f49ecb142c511da9aff2af71203bffaf34a9ca5bd9c0d",
	  "0e66f71edc43e42a45ad3c6fc6cdc4df", "",
	  "01920a4e669ed3a85ae8a33b35a74ad7fb2a6bb4cf395ce00334a9c9a5a5d552", "",
	  "", "",
	  "76fc79fe9b50beccc991a11b5635783a83536add03c157fb30645e611c2898bb"
	  "2b1bc215000209208cd506cb28da2a51bdb03826aaf2bd2335d576d519160842"
	  "e7158ad0949d1a9ec3e66ea1b1a064b005de914eac2e9d4f2d72a8616a802254"
	  "22918250ff66a41bd2f864a6a38cc5b6499dc43f7f2bd09e1e0f8f5885935124",
	  "17dc11c2389f5eeb9d0f6a5148a1ea83ee8a828f4f140ac78272a0da435fa121",
	  "81e0d8830ed2d16f9b288a1cb289c5fab3f3c5c28131be7cafedcc7734604d34",
	  "ca43e73325de43c41d7e0a7a3163fb04061b09fcee4c7b8884e969e3bdfdff9a",
	  "c246fa97570ba2b9d9e5b453fe4632366f146fbd8491146563eb463c9eafe50c",
	  "8be4c7f9f249d5af2c6345a8f07af14be1d7adc2b9892286ffe37760d8aa5a1b",
	  "df67d0816d6a8f3b73ba7638ea113bef0e33a1da451272ef1472211fb31c1cd6",
	  "5ed31bc06cc4f3a97f7f34929b0558b0c34de1f4bd1cef456a8364140e2d9f41",
	  "80524881711e89a61e6fe7169581e50fb9ad642f3dff48fba5773352fa04cec3" },
	/* pr_false, [PersonalizationStringLen = 0], [AdditionalInputLen = 256] */
	{ "pr_false pers=0 add=256 COUNT=0",
	  "05ac9fc4c62a02e3f90840da5616218c6de5743d66b8e0fbf833759c5928b53d",
	  "2b89a17904922ed8f017a63044848545", "",
	  "2791126b8b52ee1fd9392a0a13e0083bed4186dc649b739607ac70ec8dcecf9b",
	  "43bac13bae715092cf7eb280a2e10a962faf7233c41412f69bc74a35a584e54c",
	  "3f2fed4b68d506ecefa21f3f5bb907beb0f17dbc30f6ffbba5e5861408c53a1e",
	  "529030df50f410985fde068df82b935ec23d839cb4b269414c0ede6cffea5b68",
	  "02ddff5173da2fcffa10215b030d660d61179e61ecc22609b1151a75f1cbcbb4"
	  "363c3a89299b4b63aca5e581e73c860491010aa35de3337cc6c09ebec8c91a62"
	  "87586f3a74d9694b462d2720ea2e11bbd02af33adefb4a16e6b370fa0effd57d"
	  "607547bdcfbb7831f54de7073ad2a7da987a0016a82fa958779a168674b56524",
	  "8d3006bd33b7d8b935a8484b786850f107b731a7efc51521848b875c2214d154",
	  "eaa29892ee1e46198ea68c07588ac12641fc901e484eda321c2f26a9ff328e3d",
	  "3138df070c49f48b080004df669f386676b4cb92b40de4d021b2a9e4451e5013",
	  "25d3b766cd9f8ad5c45efd7fa01cc08dbce8d0d3792ec2b59bfead7bce39ed01",
	  "cac850b111de755bb8a5ed1ebc052ed53ab1ff1b9d0fab2946a3728c7e9f43e4",
	  "06624fa590e1d63397b13a0e69081274434f793fdfc1e6298a7373834024da46",
	  "b15ae269570790a8c6a81c5be7aef33f645abb161d218761ff8739cb7997eed8",
	  "92971e96fc46608d4343821491990915cdb957ae983ab6cdab84fd094bce1380" },
	/* pr_false, [PersonalizationStringLen = 256], [AdditionalInputLen = 256] */
	{ "pr_false pers=256 add=256 COUNT=0",
	  "cdb0d9117cc6dbc9ef9dcb06a97579841d72dc18b2d46a1cb61e314012bdf416",
	  "d0c0d01d156016d0eb6b7e9c7c3c8da8",
	  "6f0fb9eab3f9ea7ab0a719bfa879bf0aaed683307fda0c6d73ce018b6e34faaa",
	  "8ec6f7d5a8e2e88f43986f70b86e050d07c84b931bcf18e601c5a3eee3064c82",
	  "1ab4ca9014fa98a55938316de8ba5a68c629b0741bdd058c4d70c91cda5099b3",
	  "16e2d0721b58d839a122852abd3bf2c942a31c84d82fca74211871880d7162ff",
	  "53686f042a7b087d5d2eca0d2a96de131f275ed7151189f7ca52deaa78b79fb2",
	  "dda04a2ca7b8147af1548f5d086591ca4fd951a345ce52b3cd49d47e84aa31a1"
	  "83e31fbc42a1ff1d95afec7143c8008c97bc2a9c091df0a763848391f68cb4a3"
	  "66ad89857ac725a53b303ddea767be8dc5f605b1b95f6d24c9f06be65a973a08"
	  "9320b3cc42569dcfd4b92b62a993785b0301b3fc452445656fce22664827b88f",
	  "108a7674f3348216c91f5745dd87a919f552fc44373b84ad4b3b843a26b574cb",
	  "6c02577c505aed360be7b1cecb61068d8765be1391bacb10f4180d91bd3915db",
	  "e57f901d4bff2909f09467003096edfdb46c89af6bd82e904d11b6753d645c90",
	  "21a645aeca821899e7e733a10f64565deee5ced3cd5c0356b66c76dc8a906e69",
	  "648f92d385c3fbf61526deef48ca5ca4dfe4646d82fe8e73bc1705824e181dc9",
	  "490c0b7786c80f16ad5ee1cc0efd29618968dce14cccebecec8964ea8a41b439",
	  "db4853ca51700d43c5b6d63eb6cd20ea2dbe3dff512f2dc9531b5b3d9120121c",
	  "47390036d5cb308cf9592fdfe95bf19b8ed1a3db88ed8c3b2b2d77540dfb5470" },
	{ "pr_false pers=256 add=256 (a further COUNT)",
	  "93161b2dc08cb0fd50171141c865a841ca935cfdd2b5907d6ff8ab0348c4ceb0",
	  "5cb9f6e5912b90c3349a50ab881b35a1",
	  "0dceb4a36326c4df1685df43fddeecb5d0c76f00eb44826694f27e610290f6e1",
	  "d8e9be44b5f293482548d4787762ebfb03c73c40e45385e8b98907cd66f493dd",
	  "105a8f85d6959f3e043ef508cfea21d52123f03b7aea8034c4eec761eaba1fee",
	  "bf781f7e489d9b4b5aa5ee6d1796468af672a8d25f311edf3c4b4dbf433d703f",
	  "c81d6bcf1e5bf37e39dda1735c6f193df115b1a854a12e7cafe060afe4589335",
	  "4306628124d0100fade7eaaf5edf227d50771f9e5f2e1e983800eef9a39fde0b"
	  "0c280e63c8728d836b5b93ea794a32c1c04cfc54bd5300e3febb5fe2e1023ede"
	  "d8d7cd180279a598f76823e8d5a7dffcc93a09deec5d1f80838e938fba4de9f4"
	  "7e94b99382ae55f116df9c3b3ddf7e50516e203645852a415796f03a86418107",
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

static int check_kv(const kc_drbg *d, const char *k, const char *v)
{
	uint8_t *kb, *vb;
	size_t kl, vl;
	int ok;
	if (!k)
		return 1;
	kb = ts_unhex(k, &kl);
	vb = ts_unhex(v, &vl);
	ok = kl == 32 && vl == 32 && !memcmp(d->K, kb, 32) && !memcmp(d->V, vb, 32);
	free(kb);
	free(vb);
	return ok;
}

#define UNHEX(s, l) ts_unhex((s), &(l))

static void test_cavp(void)
{
	size_t i;
	for (i = 0; i < sizeof kats / sizeof kats[0]; i++) {
		const drbg_kat *t = &kats[i];
		size_t el, nl, pl, rl = 0, ral = 0, a1l, a2l, outl;
		uint8_t *e = UNHEX(t->entropy, el), *n = UNHEX(t->nonce, nl), *p = UNHEX(t->pers, pl);
		uint8_t *re = t->reseed_entropy ? UNHEX(t->reseed_entropy, rl) : NULL;
		uint8_t *ra = t->reseed_add ? UNHEX(t->reseed_add, ral) : NULL;
		uint8_t *a1 = UNHEX(t->add1, a1l), *a2 = UNHEX(t->add2, a2l);
		uint8_t *want = UNHEX(t->returned, outl), got[128];
		kc_drbg d;
		int ok = 1;

		CU_ASSERT_FATAL(outl == sizeof got);
		ok &= kc_drbg_init(&d, e, el, n, nl, p, pl) == PV_OK;
		ok &= check_kv(&d, t->k_inst, t->v_inst);
		if (re) {
			ok &= kc_drbg_reseed(&d, re, rl, ra, ral) == PV_OK;
			ok &= check_kv(&d, t->k_reseed, t->v_reseed);
		}
		ok &= kc_drbg_generate(&d, got, sizeof got, a1, a1l) == PV_OK;
		ok &= check_kv(&d, t->k_gen1, t->v_gen1);
		ok &= kc_drbg_generate(&d, got, sizeof got, a2, a2l) == PV_OK;
		ok &= check_kv(&d, t->k_gen2, t->v_gen2);
		ok &= memcmp(got, want, sizeof got) == 0;
		ok &= d.reseed_counter == 3;
		CU_ASSERT(ok);
		fprintf(stderr, "CAVP HMAC_DRBG SHA-256 %s: %s\n", t->name, ok ? "ok" : "FAILED");
		free(e); free(n); free(p); free(re); free(ra); free(a1); free(a2); free(want);
	}
}

static void seed(kc_drbg *d, uint8_t tag)
{
	uint8_t e[48];
	memset(e, tag, sizeof e);
	CU_ASSERT_EQUAL_FATAL(kc_drbg_init(d, e, 32, e + 32, 16, NULL, 0), PV_OK);
}

/* A request over 64 KiB equals the same request split in 64 KiB generates
 * with the same additional input (one reseed-counter step each). */
static void test_chunking(void)
{
	const size_t total = 3 * KC_DRBG_MAX_REQUEST + 3392;
	uint8_t *a = malloc(total), *b = malloc(total), add[40];
	kc_drbg d1, d2;
	size_t off;

	memset(add, 0xa5, sizeof add);
	seed(&d1, 7);
	seed(&d2, 7);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, total, add, sizeof add), PV_OK);
	for (off = 0; off < total; off += KC_DRBG_MAX_REQUEST) {
		size_t n = total - off < KC_DRBG_MAX_REQUEST ? total - off : KC_DRBG_MAX_REQUEST;
		CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b + off, n, add, sizeof add), PV_OK);
	}
	CU_ASSERT(memcmp(a, b, total) == 0);
	CU_ASSERT(memcmp(&d1, &d2, sizeof d1) == 0);
	CU_ASSERT_EQUAL(d1.reseed_counter, 5);
	/* exactly 64 KiB is one request */
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, KC_DRBG_MAX_REQUEST, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(d1.reseed_counter, 6);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, KC_DRBG_MAX_REQUEST + 1, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(d1.reseed_counter, 8);
	/* short and odd lengths: a prefix of the same stream is not required by
	 * SP 800-90A, but two equal states must give equal output */
	seed(&d1, 9);
	seed(&d2, 9);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 0, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b, 0, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 33, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b, 33, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(a, b, 33) == 0);
	free(a);
	free(b);
}

/* d1 has nothing ahead (all wiped) and draws what d2, in the same
 * state without bytes ahead, draws */
static void ahead_gone(kc_drbg *d1, kc_drbg *d2)
{
	static const uint8_t zero[KC_DRBG_AHEAD];
	uint8_t a[16], b[16];

	CU_ASSERT_EQUAL(d1->nahead, 0);
	CU_ASSERT(memcmp(d1->ahead, zero, sizeof zero) == 0);
	CU_ASSERT_EQUAL(kc_drbg_generate(d1, a, 16, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(d2, b, 16, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(a, b, 16) == 0);
}

/* Output drawn ahead (kc_drbg_fill): a fill is one 32-byte generate; small
 * requests without additional input take its last bytes (wiped there) and
 * leave K, V and the counter alone; a larger request goes to the
 * generator and keeps them; one with additional input, or a reseed,
 * discards them. */
static void test_ahead(void)
{
	static const uint8_t zero[KC_DRBG_AHEAD];
	uint8_t e[48], add[20], a[64], b[64];
	kc_drbg d1, d2;

	memset(e, 0x3c, sizeof e);
	memset(add, 0x5a, sizeof add);
	seed(&d1, 11);
	seed(&d2, 11);
	CU_ASSERT(kc_drbg_fill_wanted(&d1));
	CU_ASSERT_EQUAL(kc_drbg_fill(&d1), PV_OK);
	CU_ASSERT_EQUAL(d1.nahead, KC_DRBG_AHEAD);
	CU_ASSERT(!kc_drbg_fill_wanted(&d1));
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b, 32, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(d1.ahead, b, 32) == 0);
	CU_ASSERT(memcmp(d1.V, d2.V, 32) == 0 && d1.reseed_counter == d2.reseed_counter);
	/* 16 bytes: the last 16 of the fill, nothing else moves */
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 16, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(a, b + 16, 16) == 0);
	CU_ASSERT_EQUAL(d1.nahead, 16);
	CU_ASSERT(memcmp(d1.ahead + 16, zero, 16) == 0);
	CU_ASSERT(memcmp(d1.V, d2.V, 32) == 0 && d1.reseed_counter == d2.reseed_counter);
	CU_ASSERT(!kc_drbg_fill_wanted(&d1));
	/* more than is left: the generator, the 16 stay */
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 17, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b + 32, 17, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(a, b + 32, 17) == 0);
	CU_ASSERT_EQUAL(d1.nahead, 16);
	/* the rest, then the generator again in step with d2 */
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 12, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(a, b + 4, 12) == 0);
	CU_ASSERT_EQUAL(d1.nahead, 4);
	CU_ASSERT(kc_drbg_fill_wanted(&d1));
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 4, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(a, b, 4) == 0);
	ahead_gone(&d1, &d2);
	/* additional input: the generator, and the bytes ahead are gone */
	CU_ASSERT_EQUAL(kc_drbg_fill(&d1), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b, 32, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 8, add, sizeof add), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b + 32, 8, add, sizeof add), PV_OK);
	CU_ASSERT(memcmp(a, b + 32, 8) == 0);
	ahead_gone(&d1, &d2);
	/* a fill over a partly used one starts afresh; a reseed discards it */
	CU_ASSERT_EQUAL(kc_drbg_fill(&d1), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d1, a, 10, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_fill(&d1), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b, 32, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d2, b, 32, NULL, 0), PV_OK);
	CU_ASSERT(memcmp(d1.ahead, b, 32) == 0 && d1.nahead == KC_DRBG_AHEAD);
	CU_ASSERT_EQUAL(kc_drbg_reseed(&d1, e, 32, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_reseed(&d2, e, 32, NULL, 0), PV_OK);
	ahead_gone(&d1, &d2);
	/* unseeded: nothing to fill */
	memset(&d1, 0, sizeof d1);
	CU_ASSERT(!kc_drbg_fill_wanted(&d1));
	CU_ASSERT_EQUAL(kc_drbg_fill(&d1), PV_ERR_RANDOM);
	CU_ASSERT_EQUAL(d1.nahead, 0);
}

static void test_errors(void)
{
	kc_drbg d, zero;
	uint8_t e[64], out[16];

	memset(e, 1, sizeof e);
	memset(&zero, 0, sizeof zero);
	memset(&d, 0, sizeof d);
	/* unseeded */
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, out, sizeof out, NULL, 0), PV_ERR_RANDOM);
	CU_ASSERT_EQUAL(kc_drbg_reseed(&d, e, 32, NULL, 0), PV_ERR_RANDOM);
	/* too little entropy */
	CU_ASSERT_EQUAL(kc_drbg_init(&d, e, 31, e, 16, NULL, 0), PV_ERR_RANDOM);
	CU_ASSERT_EQUAL(d.seeded, 0);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, out, sizeof out, NULL, 0), PV_ERR_RANDOM);
	CU_ASSERT_EQUAL(kc_drbg_init(&d, NULL, 32, e, 16, NULL, 0), PV_ERR_ARGS);
	CU_ASSERT_EQUAL(kc_drbg_init(&d, e, 32, e, 16, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(kc_drbg_reseed(&d, e, 31, NULL, 0), PV_ERR_RANDOM);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, out, sizeof out, NULL, 5), PV_ERR_ARGS);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, NULL, 5, NULL, 0), PV_ERR_ARGS);

	/* reseed due: counter past the interval refuses, and writes nothing */
	d.reseed_counter = KC_DRBG_RESEED_INTERVAL;
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, out, sizeof out, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(d.reseed_counter, KC_DRBG_RESEED_INTERVAL + 1);
	memset(out, 0xee, sizeof out);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, out, sizeof out, NULL, 0), PV_ERR_RANDOM);
	CU_ASSERT(out[0] == 0xee && out[15] == 0xee);
	CU_ASSERT_EQUAL(kc_drbg_reseed(&d, e, 32, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(d.reseed_counter, 1);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, out, sizeof out, NULL, 0), PV_OK);
	/* a multi-chunk request that would cross the interval is refused whole */
	{
		uint8_t *big = malloc(2 * KC_DRBG_MAX_REQUEST);
		d.reseed_counter = KC_DRBG_RESEED_INTERVAL;
		CU_ASSERT_EQUAL(kc_drbg_generate(&d, big, 2 * KC_DRBG_MAX_REQUEST, NULL, 0), PV_ERR_RANDOM);
		CU_ASSERT_EQUAL(d.reseed_counter, KC_DRBG_RESEED_INTERVAL);
		d.reseed_counter = KC_DRBG_RESEED_INTERVAL - 1;
		CU_ASSERT_EQUAL(kc_drbg_generate(&d, big, 2 * KC_DRBG_MAX_REQUEST, NULL, 0), PV_OK);
		free(big);
	}
	kc_drbg_clear(&d);
	CU_ASSERT(memcmp(&d, &zero, sizeof d) == 0);
	CU_ASSERT_EQUAL(kc_drbg_generate(&d, out, sizeof out, NULL, 0), PV_ERR_RANDOM);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("core_hash_drbg", NULL, NULL);
	CU_add_test(s, "CAVP HMAC_DRBG SHA-256", test_cavp);
	CU_add_test(s, "requests over 64 KiB", test_chunking);
	CU_add_test(s, "output drawn ahead (kc_drbg_fill)", test_ahead);
	CU_add_test(s, "errors and reseed counter", test_errors);
	return ts_run();
}
