/*
 * pvc_check.h - the one checking macro of the CUDA backend.  Every CUDA
 * runtime call goes through PVC_CK, which records "file:line: call: error"
 * and, once the vault exists, seals it (pvc_ck in pv_cuda.c).
 */
#ifndef PVC_CHECK_H
#define PVC_CHECK_H

#include <stddef.h>
#include <cuda_runtime_api.h>

struct pv_cuda;

/* PV_OK if e == cudaSuccess; otherwise PV_ERR_DEVICE, the message in
 * v->why (v != NULL, and the vault is sealed) or in buf (v == NULL). */
int pvc_ck(struct pv_cuda *v, char *buf, size_t buflen, cudaError_t e,
           const char *what, const char *file, int line);

#define PVC_CK(v, call) pvc_ck((v), NULL, 0, (call), #call, __FILE__, __LINE__)
#define PVC_CKB(buf, len, call) pvc_ck(NULL, (buf), (len), (call), #call, __FILE__, __LINE__)

#endif /* PVC_CHECK_H */
