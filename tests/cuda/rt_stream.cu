// rt_stream.cu - stream creation (flags, priorities clamped to the device range), queries
// (flags, priority, device, id), in-order execution, legacy-stream semantics against
// blocking, non-blocking and per-thread streams observed with host functions, destroy with
// pending work, and invalid/destroyed handles.
#include <cuda_runtime.h>
#include <atomic>
#include <string.h>
#include <unistd.h>
#include <vector>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

static std::atomic<int> flag_a, flag_b, seen_a, seen_b;
static std::vector<int> order;

static void sleep_then_set_a(void *) { usleep(150 * 1000); flag_a = 1; }
static void sleep_then_set_b(void *) { usleep(150 * 1000); flag_b = 1; }
static void read_a(void *) { seen_a = flag_a.load(); }
static void read_b(void *) { seen_b = flag_b.load(); }
static void push(void *p) { order.push_back((int)(long)p); }
static void set_a(void *) { flag_a = 1; }
static void wait_a_bounded(void *)   /* waits up to 5 s for flag_a */
{
    for (int i = 0; i < 5000 && !flag_a; i++) usleep(1000);
    seen_a = flag_a.load();
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int emulated = strstr(prop.name, "transfer_to_npu") != NULL;
    int least = 0, greatest = 0;
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));

    /* creation and queries */
    cudaStream_t s1, s2, s3, s4;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithPriority(&s3, cudaStreamDefault, greatest));
    CK(cudaStreamCreateWithPriority(&s4, cudaStreamNonBlocking, 1000));   /* clamped */
    unsigned f = 99;
    CK(cudaStreamGetFlags(s1, &f)); CHECK_EQ(f, cudaStreamDefault);
    CK(cudaStreamGetFlags(s2, &f)); CHECK_EQ(f, cudaStreamNonBlocking);
    CK(cudaStreamGetFlags(s4, &f)); CHECK_EQ(f, cudaStreamNonBlocking);
    int pr = 99;
    CK(cudaStreamGetPriority(s1, &pr)); CHECK_EQ(pr, least);
    CK(cudaStreamGetPriority(s3, &pr)); CHECK_EQ(pr, greatest);
    CK(cudaStreamGetPriority(s4, &pr)); CHECK_EQ(pr, least);
    cudaStream_t s5;
    CK(cudaStreamCreateWithPriority(&s5, 0, -1000));
    CK(cudaStreamGetPriority(s5, &pr)); CHECK_EQ(pr, greatest);
    int dev = -1;
    CK(cudaStreamGetDevice(s1, &dev)); CHECK_EQ(dev, 0);
    CK(cudaStreamGetDevice(0, &dev)); CHECK_EQ(dev, 0);
    unsigned long long id1 = 0, id2 = 0, id0 = 0;
    CK(cudaStreamGetId(s1, &id1));
    CK(cudaStreamGetId(s2, &id2));
    CK(cudaStreamGetId(cudaStreamLegacy, &id0));
    CHECK(id1 != id2 && id1 != id0);
    CK(cudaStreamQuery(s1));
    CK(cudaStreamQuery(0));

    /* in-order execution of many host functions */
    for (long i = 0; i < 500; i++) CK(cudaLaunchHostFunc(s2, push, (void *)i));
    CK(cudaStreamSynchronize(s2));
    int ok = order.size() == 500;
    for (int i = 0; ok && i < 500; i++) ok &= order[i] == i;
    CHECK(ok);

    /* legacy stream waits for earlier work on blocking streams ... */
    flag_a = 0; seen_a = 0;
    CK(cudaLaunchHostFunc(s1, sleep_then_set_a, NULL));
    CK(cudaLaunchHostFunc(0, read_a, NULL));
    CK(cudaStreamSynchronize(0));
    CHECK_EQ(seen_a.load(), 1);
    /* ... and blocking streams wait for earlier work on the legacy stream */
    flag_b = 0; seen_b = 0;
    CK(cudaLaunchHostFunc(cudaStreamLegacy, sleep_then_set_b, NULL));
    CK(cudaLaunchHostFunc(s3, read_b, NULL));
    CK(cudaStreamSynchronize(s3));
    CHECK_EQ(seen_b.load(), 1);
    /* the per-thread default stream behaves as a blocking stream towards the legacy one */
    flag_a = 0; seen_a = 0;
    CK(cudaLaunchHostFunc(cudaStreamPerThread, sleep_then_set_a, NULL));
    CK(cudaLaunchHostFunc(cudaStreamLegacy, read_a, NULL));
    CK(cudaDeviceSynchronize());
    CHECK_EQ(seen_a.load(), 1);
    /* cudaDeviceSynchronize waits for every stream */
    flag_a = 0;
    CK(cudaLaunchHostFunc(s2, sleep_then_set_a, NULL));
    CK(cudaDeviceSynchronize());
    CHECK_EQ(flag_a.load(), 1);
    /* a non-blocking stream does not wait for the legacy stream: the legacy stream waits
     * for a flag that only later work on the non-blocking stream sets. (On a GPU, host
     * functions of different streams may share one thread, so only checked emulated.) */
    if (emulated) {
        flag_a = 0; seen_a = 0;
        CK(cudaLaunchHostFunc(0, wait_a_bounded, NULL));
        CK(cudaLaunchHostFunc(s2, set_a, NULL));
        CK(cudaDeviceSynchronize());
        CHECK_EQ(seen_a.load(), 1);
    }

    /* destroy with pending work: the work still completes */
    cudaStream_t tmp;
    CK(cudaStreamCreate(&tmp));
    flag_b = 0;
    CK(cudaLaunchHostFunc(tmp, sleep_then_set_b, NULL));
    CK(cudaStreamDestroy(tmp));
    CK(cudaDeviceSynchronize());
    CHECK_EQ(flag_b.load(), 1);

    /* invalid and destroyed handles, bad arguments */
    CHECK_EQ(cudaStreamSynchronize(tmp), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaStreamQuery(tmp), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaStreamGetFlags(tmp, &f), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaStreamGetPriority(tmp, &pr), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaLaunchHostFunc(tmp, set_a, NULL), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaStreamDestroy(tmp), cudaErrorInvalidResourceHandle);
    int junk[64] = { 0 };
    CHECK_EQ(cudaStreamSynchronize((cudaStream_t)(void *)junk), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaStreamCreate(NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamCreateWithFlags(&tmp, 0x40), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamGetFlags(s1, NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamGetPriority(s1, NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaLaunchHostFunc(s1, NULL, NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);

    /* the surviving streams still work */
    int *d = NULL, h = 0, v = 1234;
    CK(cudaMalloc((void **)&d, sizeof(int)));
    CK(cudaMemcpyAsync(d, &v, sizeof v, cudaMemcpyHostToDevice, s4));
    CK(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, s4));
    CK(cudaStreamSynchronize(s4));
    CHECK_EQ(h, 1234);
    CK(cudaFree(d));
    cudaStream_t all[] = { s1, s2, s3, s4, s5 };
    for (cudaStream_t s : all) CK(cudaStreamDestroy(s));
    return CHECK_DONE();
}
