// rt_event.cu - events: flags, record/query/synchronize, elapsed time across a host
// function that sleeps (lower bound only), cross-stream dependencies with
// cudaStreamWaitEvent, re-recording, and invalid/destroyed handles and bad flags.
#include <cuda_runtime.h>
#include <atomic>
#include <unistd.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

static std::atomic<int> flag, seen;
static void sleep50_set(void *) { usleep(50 * 1000); flag = 1; }
static void sleep50(void *) { usleep(50 * 1000); }
static void read_flag(void *) { seen = flag.load(); }

int main()
{
    cudaEvent_t e0, e1, nt, bs;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreateWithFlags(&e1, cudaEventDefault));
    CK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&bs, cudaEventBlockingSync));
    CK(cudaEventQuery(e0));                     /* never recorded: complete */
    CK(cudaEventSynchronize(e0));

    cudaStream_t s, t;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));

    /* pending vs complete */
    CK(cudaEventRecord(e0, s));
    CK(cudaLaunchHostFunc(s, sleep50, NULL));
    CK(cudaEventRecord(e1, s));
    CHECK_EQ(cudaEventQuery(e1), cudaErrorNotReady);
    CHECK_EQ(cudaEventElapsedTime(NULL, e0, e1), cudaErrorInvalidValue);
    float ms = -1;
    CHECK_EQ(cudaEventElapsedTime(&ms, e0, e1), cudaErrorNotReady);
    CK(cudaEventSynchronize(e1));
    CK(cudaEventQuery(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(ms >= 45.0f);                          /* spans the 50 ms host function */
    CHECK(ms < 60000.0f);
    float back = 0;
    if (cudaEventElapsedTime(&back, e1, e0) == cudaSuccess)   /* reversed order: negative */
        CHECK_NEAR(back, -ms, 0.01);

    /* events without timing, never-recorded events: invalid for elapsed time */
    CK(cudaEventRecord(nt, s));
    CK(cudaEventSynchronize(nt));
    CHECK_EQ(cudaEventElapsedTime(&ms, e0, nt), cudaErrorInvalidResourceHandle);
    cudaEvent_t fresh;
    CK(cudaEventCreate(&fresh));
    CHECK_EQ(cudaEventElapsedTime(&ms, fresh, e1), cudaErrorInvalidResourceHandle);
    CK(cudaEventDestroy(fresh));

    /* cross-stream dependency: t waits for the work e0 captures on s */
    flag = 0; seen = 0;
    CK(cudaLaunchHostFunc(s, sleep50_set, NULL));
    CK(cudaEventRecord(bs, s));
    CK(cudaStreamWaitEvent(t, bs, 0));
    CK(cudaLaunchHostFunc(t, read_flag, NULL));
    CK(cudaStreamSynchronize(t));
    CHECK_EQ(seen.load(), 1);
    CK(cudaEventSynchronize(bs));
    /* re-record on the legacy stream, and cudaEventRecordWithFlags */
    CK(cudaEventRecord(e0, 0));
    CK(cudaEventRecordWithFlags(e1, 0, cudaEventRecordDefault));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(ms >= 0.0f);
    /* waiting on an event that was never recorded is a no-op */
    cudaEvent_t idle;
    CK(cudaEventCreate(&idle));
    CK(cudaStreamWaitEvent(t, idle, 0));
    CK(cudaStreamSynchronize(t));

    /* bad input */
    CHECK_EQ(cudaEventCreate(NULL), cudaErrorInvalidValue);
    cudaEvent_t bad;
    CHECK_EQ(cudaEventCreateWithFlags(&bad, 0x80), cudaErrorInvalidValue);
    CHECK_EQ(cudaEventCreateWithFlags(&bad, cudaEventInterprocess), cudaErrorInvalidValue);
    CHECK_EQ(cudaEventRecordWithFlags(e0, s, 0x10), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamWaitEvent(t, e0, 0x10), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaEventDestroy(idle));
    CHECK_EQ(cudaEventQuery(idle), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaEventSynchronize(idle), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaEventRecord(idle, s), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaEventElapsedTime(&ms, idle, e1), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaStreamWaitEvent(s, idle, 0), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaEventDestroy(idle), cudaErrorInvalidResourceHandle);
    long junk[32] = { 0 };
    CHECK_EQ(cudaEventQuery((cudaEvent_t)(void *)junk), cudaErrorInvalidResourceHandle);
    cudaStream_t gone;
    CK(cudaStreamCreate(&gone));
    CK(cudaStreamDestroy(gone));
    CHECK_EQ(cudaEventRecord(e0, gone), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);

    /* the live events still work */
    CK(cudaEventRecord(e0, s));
    CK(cudaLaunchHostFunc(s, sleep50, NULL));
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(ms >= 45.0f);
    cudaEvent_t evs[] = { e0, e1, nt, bs };
    for (cudaEvent_t e : evs) CK(cudaEventDestroy(e));
    CK(cudaStreamDestroy(s));
    CK(cudaStreamDestroy(t));
    return CHECK_DONE();
}
