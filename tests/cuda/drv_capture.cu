// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_capture.cu - driver API calls around the work: stream capture queries in every exported
 * ABI (cuStreamIsCapturing, cuStreamGetCaptureInfo with 3 arguments, _v2 with 6, _v3 with 7,
 * and their _ptsz forms) answer CU_STREAM_CAPTURE_STATUS_NONE for every live stream, clear
 * the capture-only outputs and reject a NULL status, edge data without dependencies and a
 * destroyed stream; cuThreadExchangeStreamCaptureMode swaps the per-thread mode;
 * cuProfilerStart/Stop succeed with a current context and fail before cuInit.
 */
#include <cuda.h>
#include <cudaProfiler.h>
#include "check.h"

/* The older exported ABIs, by their symbol names (cuda.h maps cuStreamGetCaptureInfo to _v3). */
extern "C" {
CUresult info_v1(CUstream, CUstreamCaptureStatus *, cuuint64_t *) __asm__("cuStreamGetCaptureInfo");
CUresult info_v1_pt(CUstream, CUstreamCaptureStatus *, cuuint64_t *) __asm__("cuStreamGetCaptureInfo_ptsz");
CUresult info_v2(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *, const CUgraphNode **,
                 size_t *) __asm__("cuStreamGetCaptureInfo_v2");
CUresult info_v2_pt(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *, const CUgraphNode **,
                    size_t *) __asm__("cuStreamGetCaptureInfo_v2_ptsz");
CUresult info_v3(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *, const CUgraphNode **,
                 const CUgraphEdgeData **, size_t *) __asm__("cuStreamGetCaptureInfo_v3");
CUresult info_v3_pt(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *, const CUgraphNode **,
                    const CUgraphEdgeData **, size_t *) __asm__("cuStreamGetCaptureInfo_v3_ptsz");
CUresult capturing_pt(CUstream, CUstreamCaptureStatus *) __asm__("cuStreamIsCapturing_ptsz");
}

int main()
{
    /* before cuInit */
    CHECK_EQ(cuProfilerStart(), CUDA_ERROR_NOT_INITIALIZED);
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);

    CUcontext ctx;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
    CHECK_EQ(cuProfilerStart(), CUDA_SUCCESS);
    CHECK_EQ(cuProfilerStart(), CUDA_SUCCESS);
    CHECK_EQ(cuProfilerStop(), CUDA_SUCCESS);
    CHECK_EQ(cuProfilerStop(), CUDA_SUCCESS);

    CUstream s, dead;
    CHECK_EQ(cuStreamCreate(&s, CU_STREAM_DEFAULT), CUDA_SUCCESS);
    CHECK_EQ(cuStreamCreate(&dead, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    CHECK_EQ(cuStreamDestroy(dead), CUDA_SUCCESS);
    CUstream live[] = { NULL, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD, s };
    for (unsigned i = 0; i < sizeof live / sizeof live[0]; i++) {
        CUstream h = live[i];
        for (int pt = 0; pt < 2; pt++) {
            CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_ACTIVE;
            CHECK_EQ(pt ? capturing_pt(h, &st) : cuStreamIsCapturing(h, &st), CUDA_SUCCESS);
            CHECK_EQ(st, CU_STREAM_CAPTURE_STATUS_NONE);
            cuuint64_t id = 0;
            st = CU_STREAM_CAPTURE_STATUS_ACTIVE;
            CHECK_EQ(pt ? info_v1_pt(h, &st, &id) : info_v1(h, &st, &id),
                     CUDA_SUCCESS);
            CHECK_EQ(st, CU_STREAM_CAPTURE_STATUS_NONE);
            CUgraph g = (CUgraph)1;
            const CUgraphNode *deps = (const CUgraphNode *)1;
            const CUgraphEdgeData *edges = (const CUgraphEdgeData *)1;
            size_t nd = 5;
            st = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
            CHECK_EQ(pt ? info_v2_pt(h, &st, &id, &g, &deps, &nd)
                        : info_v2(h, &st, &id, &g, &deps, &nd), CUDA_SUCCESS);
            CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE && g == NULL && deps == NULL && nd == 0);
            g = (CUgraph)1; deps = (const CUgraphNode *)1; nd = 5;
            st = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
            CHECK_EQ(pt ? info_v3_pt(h, &st, &id, &g, &deps, &edges, &nd)
                        : info_v3(h, &st, &id, &g, &deps, &edges, &nd), CUDA_SUCCESS);
            CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE && g == NULL && deps == NULL && edges == NULL && nd == 0);
        }
    }
    CUstreamCaptureStatus st;
    const CUgraphEdgeData *edges;
    CHECK_EQ(cuStreamIsCapturing(s, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(info_v1(s, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(info_v3(s, &st, NULL, NULL, NULL, &edges, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuStreamIsCapturing(dead, &st), CUDA_ERROR_INVALID_HANDLE);
    CHECK_EQ(info_v2(dead, &st, NULL, NULL, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);

    CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
    CHECK_EQ(cuThreadExchangeStreamCaptureMode(&m), CUDA_SUCCESS);
    CHECK_EQ(m, CU_STREAM_CAPTURE_MODE_GLOBAL);
    m = CU_STREAM_CAPTURE_MODE_RELAXED;
    CHECK_EQ(cuThreadExchangeStreamCaptureMode(&m), CUDA_SUCCESS);
    CHECK_EQ(m, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
    m = (CUstreamCaptureMode)9;
    CHECK_EQ(cuThreadExchangeStreamCaptureMode(&m), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuThreadExchangeStreamCaptureMode(NULL), CUDA_ERROR_INVALID_VALUE);

    CHECK_EQ(cuStreamDestroy(s), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    return CHECK_DONE();
}
