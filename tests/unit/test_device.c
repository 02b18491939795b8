/*
 * test_device.c - device count, visibility filtering and renumbering (CUDA_VISIBLE_DEVICES,
 * then ASCEND_RT_VISIBLE_DEVICES), properties, current device per host thread, per-device
 * error state. Each environment case runs in a forked child, which sets the environment
 * before its runtime starts and reports the visible physical ids through a pipe.
 */
#include "npu_runtime/npu.h"
#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* memory.c's npu_pool_free_async submits to a stream; this test uses no pools, so a
 * synchronous stand-in keeps it independent of stream.c. */
npu_status_t npu_stream_submit(npu_stream_t *s, npu_work_fn fn, npu_cleanup_fn cleanup, void *arg)
{
    (void)s;
    npu_status_t st = fn ? fn(arg) : NPU_OK;
    if (cleanup)
        cleanup(arg);
    return st;
}

/* Child: applies env (NULL value = unset), starts the runtime, writes
 * "<init status> <count> <phys ids...>" to the pipe. */
static void run_case(const char *devices, const char *cvd, const char *avd, char *out, size_t n)
{
    int fd[2];
    out[0] = 0;
    if (pipe(fd))
        return;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        if (devices) setenv("TRANSFER_TO_NPU_DEVICES", devices, 1); else unsetenv("TRANSFER_TO_NPU_DEVICES");
        if (cvd) setenv("CUDA_VISIBLE_DEVICES", cvd, 1); else unsetenv("CUDA_VISIBLE_DEVICES");
        if (avd) setenv("ASCEND_RT_VISIBLE_DEVICES", avd, 1); else unsetenv("ASCEND_RT_VISIBLE_DEVICES");
        char buf[512];
        int st = npu_init();
        int len = snprintf(buf, sizeof buf, "%d %d", st, npu_device_count());
        for (int i = 0; i < npu_device_count(); i++) {
            npu_device_props_t p;
            npu_device_get_props(i, &p);
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %d", p.physical_id);
        }
        if (write(fd[1], buf, (size_t)len) < 0)
            _exit(2);
        _exit(0);
    }
    close(fd[1]);
    ssize_t r = read(fd[0], out, n - 1);
    out[r > 0 ? r : 0] = 0;
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
}

static const char *or_unset(const char *v) { return v ? v : "(unset)"; }

#define CASE(dev, cvd, avd, expect) do { char got_[512]; run_case(dev, cvd, avd, got_, sizeof got_); \
    CHECK_MSG(strcmp(got_, expect) == 0, "DEVICES=%s CUDA_VISIBLE_DEVICES=%s ASCEND=%s: got '%s' want '%s'", \
              or_unset(dev), or_unset(cvd), or_unset(avd), got_, expect); } while (0)

static void test_visibility(void)
{
    char ok[8], nodev[8];
    snprintf(ok, sizeof ok, "%d", NPU_OK);
    snprintf(nodev, sizeof nodev, "%d", NPU_ENODEVICE);
    char want[256];
#define W(st, rest) (snprintf(want, sizeof want, "%s %s", st, rest), want)
    CASE(NULL, NULL, NULL, W(ok, "1 0"));
    CASE("4", NULL, NULL, W(ok, "4 0 1 2 3"));
    CASE("4", "2,0", NULL, W(ok, "2 2 0"));
    CASE("4", "3, 1 ,2", NULL, W(ok, "3 3 1 2"));
    CASE("4", "1,7,2", NULL, W(ok, "1 1"));            /* out of range ends the list */
    CASE("4", "1,x,2", NULL, W(ok, "1 1"));            /* not a number ends the list */
    CASE("4", "2,2,3", NULL, W(ok, "1 2"));            /* a repeat ends the list */
    CASE("4", "-1", NULL, W(nodev, "0"));
    CASE("4", "", NULL, W(nodev, "0"));                /* set but empty: nothing visible */
    CASE("4", "5", NULL, W(nodev, "0"));
    CASE("4", "3,1,2", "2,0", W(ok, "2 2 3"));         /* ASCEND indexes the CUDA list */
    CASE("4", NULL, "1", W(ok, "1 1"));
    CASE("4", "1,2", "", W(nodev, "0"));
    CASE("0", NULL, NULL, W(nodev, "0"));
    CASE("2", "1,", NULL, W(ok, "1 1"));
#undef W
}

static void test_uuid_visibility(void)
{
    /* the uuid of physical device 2 of 4, as "GPU-" + hex prefix */
    int fd[2];
    char hex[64] = "";
    if (pipe(fd))
        return;
    pid_t pid = fork();
    if (pid == 0) {
        setenv("TRANSFER_TO_NPU_DEVICES", "4", 1);
        unsetenv("CUDA_VISIBLE_DEVICES");
        unsetenv("ASCEND_RT_VISIBLE_DEVICES");
        npu_device_props_t p;
        npu_device_get_props(2, &p);
        char b[64];
        for (int i = 0; i < 6; i++)
            snprintf(b + 2 * i, 3, "%02x", p.uuid[i]);
        if (write(fd[1], b, 12) < 0)
            _exit(2);
        _exit(0);
    }
    ssize_t r = read(fd[0], hex, 12);
    hex[r > 0 ? r : 0] = 0;
    close(fd[0]);
    close(fd[1]);
    waitpid(pid, NULL, 0);
    char cvd[128], want[64];
    snprintf(cvd, sizeof cvd, "GPU-%.8s-%.4s,0", hex, hex + 8);
    snprintf(want, sizeof want, "%d 2 2 0", NPU_OK);
    CASE("4", cvd, NULL, want);
}

static void *thread_device(void *arg)
{
    int *res = arg;
    res[0] = npu_device_current();                     /* default 0 in a new thread */
    res[1] = npu_device_set_current(2);
    res[2] = npu_device_current();
    return NULL;
}

static void test_props_and_current(void)
{
    CHECK_EQ(npu_init(), NPU_OK);
    CHECK_EQ(npu_init(), NPU_OK);
    CHECK_EQ(npu_device_count(), 3);
    npu_device_props_t p[3];
    for (int i = 0; i < 3; i++)
        CHECK_EQ(npu_device_get_props(i, &p[i]), NPU_OK);
    CHECK_EQ(npu_device_get_props(3, &p[0]), NPU_EDEVICE);
    CHECK_EQ(npu_device_get_props(-1, &p[0]), NPU_EDEVICE);
    CHECK_EQ(npu_device_get_props(0, NULL), NPU_EINVAL);
    CHECK(strcmp(p[0].name, "Ascend910B (transfer_to_npu emulated NPU)") == 0);
    CHECK(memcmp(p[0].uuid, p[1].uuid, 16) != 0 && memcmp(p[1].uuid, p[2].uuid, 16) != 0 &&
          memcmp(p[0].uuid, p[2].uuid, 16) != 0);
    CHECK_EQ(p[0].uuid[6] >> 4, 4);                    /* RFC 4122 version 4 */
    CHECK_EQ(p[1].compute_major, 8);
    CHECK_EQ(p[1].compute_minor, 0);
    CHECK_EQ(p[0].warp_size, 32);
    CHECK_EQ(p[0].max_threads_per_block, 1024);
    CHECK(p[0].max_block_dim[0] == 1024 && p[0].max_block_dim[1] == 1024 && p[0].max_block_dim[2] == 64);
    CHECK(p[0].max_grid_dim[0] == 2147483647 && p[0].max_grid_dim[1] == 65535 && p[0].max_grid_dim[2] == 65535);
    CHECK_EQ(p[0].shared_mem_per_block, 49152);
    CHECK_EQ(p[0].shared_mem_per_block_optin, 232448);
    CHECK(p[0].shared_mem_per_sm >= p[0].shared_mem_per_block_optin);
    CHECK_EQ(p[0].multiprocessor_count, 5);            /* TRANSFER_TO_NPU_THREADS */
    CHECK_EQ(p[0].total_const_mem, 65536);
    CHECK_EQ(p[0].regs_per_block, 65536);
    CHECK_EQ(p[0].max_threads_per_sm, 2048);
    CHECK_EQ(p[2].total_mem, (size_t)96 << 20);        /* TRANSFER_TO_NPU_MEMORY */
    CHECK(p[0].clock_rate_khz > 0 && p[0].memory_clock_rate_khz > 0 && p[0].memory_bus_width > 0);
    CHECK(p[0].l2_cache_size > 0);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(p[i].physical_id, i);
        CHECK_EQ(p[i].pci_bus_id, i + 1);
    }

    CHECK_EQ(npu_device_current(), 0);
    CHECK_EQ(npu_device_set_current(1), NPU_OK);
    CHECK_EQ(npu_device_current(), 1);
    CHECK_EQ(npu_device_set_current(3), NPU_EDEVICE);
    CHECK_EQ(npu_device_set_current(-1), NPU_EDEVICE);
    CHECK_EQ(npu_device_current(), 1);
    int res[3];
    pthread_t t;
    pthread_create(&t, NULL, thread_device, res);
    pthread_join(t, NULL);
    CHECK_EQ(res[0], 0);
    CHECK_EQ(res[1], NPU_OK);
    CHECK_EQ(res[2], 2);
    CHECK_EQ(npu_device_current(), 1);                 /* other threads do not change ours */
    npu_device_set_current(0);

    /* capacities: each device has its own range; memory info reflects capacity */
    size_t fr, tot;
    CHECK_EQ(npu_mem_info(2, &fr, &tot), NPU_OK);
    CHECK_EQ(tot, (size_t)96 << 20);
    void *a, *b;
    npu_ptr_info_t in;
    CHECK_EQ(npu_mem_alloc(1, 1000, &a), NPU_OK);
    CHECK_EQ(npu_mem_alloc(2, 3 << 20, &b), NPU_OK);
    CHECK_EQ(npu_mem_lookup(a, &in), NPU_OK);
    CHECK_EQ(in.device, 1);
    CHECK_EQ(npu_mem_lookup(b, &in), NPU_OK);
    CHECK_EQ(in.device, 2);
    CHECK_EQ(npu_mem_free(a), NPU_OK);
    CHECK_EQ(npu_mem_free(b), NPU_OK);
}

static void test_errors(void)
{
    CHECK_EQ(npu_device_error(0), NPU_OK);
    CHECK_EQ(npu_device_error(9), NPU_EDEVICE);
    CHECK_EQ(npu_device_peek_async_error(0, 1), NPU_OK);
    /* non-sticky: reported once by peek(clear=1), never sticky */
    npu_device_set_error(0, NPU_EINVAL);
    npu_device_set_error(0, NPU_ENOMEM);               /* the first one is kept */
    CHECK_EQ(npu_device_error(0), NPU_OK);
    CHECK_EQ(npu_device_peek_async_error(0, 0), NPU_EINVAL);
    CHECK_EQ(npu_device_peek_async_error(0, 1), NPU_EINVAL);
    CHECK_EQ(npu_device_peek_async_error(0, 1), NPU_OK);
    /* sticky: stays until clear, per device */
    npu_device_set_error(1, NPU_EILLEGALADDR);
    npu_device_set_error(1, NPU_EASSERT);              /* first sticky fault wins */
    CHECK_EQ(npu_device_error(1), NPU_EILLEGALADDR);
    CHECK_EQ(npu_device_error(1), NPU_EILLEGALADDR);
    CHECK_EQ(npu_device_peek_async_error(1, 1), NPU_EILLEGALADDR); /* reported, not cleared */
    CHECK_EQ(npu_device_peek_async_error(1, 1), NPU_EILLEGALADDR);
    npu_device_set_error(1, NPU_EINVAL);               /* a pending one comes out first */
    CHECK_EQ(npu_device_peek_async_error(1, 1), NPU_EINVAL);
    CHECK_EQ(npu_device_peek_async_error(1, 0), NPU_EILLEGALADDR);
    CHECK_EQ(npu_device_error(0), NPU_OK);
    CHECK_EQ(npu_device_error(2), NPU_OK);
    npu_device_clear_error(1);
    CHECK_EQ(npu_device_error(1), NPU_OK);
    CHECK_EQ(npu_device_peek_async_error(1, 0), NPU_OK);
    npu_device_set_error(9, NPU_EILLEGALADDR);         /* bad ordinal: ignored */
    npu_device_set_error(0, (npu_status_t)12345);      /* bad status: ignored */
    npu_device_set_error(0, NPU_OK);
    CHECK_EQ(npu_device_error(0), NPU_OK);
    CHECK_EQ(npu_device_peek_async_error(0, 1), NPU_OK);
}

int main(void)
{
    test_visibility();
    test_uuid_visibility();
    setenv("TRANSFER_TO_NPU_DEVICES", "3", 1);
    setenv("TRANSFER_TO_NPU_THREADS", "5", 1);
    setenv("TRANSFER_TO_NPU_MEMORY", "96M", 1);
    setenv("TRANSFER_TO_NPU_LOG", "off", 1);
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("ASCEND_RT_VISIBLE_DEVICES");
    test_props_and_current();
    test_errors();
    return CHECK_DONE();
}
