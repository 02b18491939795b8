/*
 * smi.c - per-process state for scripts/npu-smi: each process using the runtime publishes a
 * small JSON file <dir>/<pid>.json with its devices' memory, rewritten when the numbers change
 * (checked every TRANSFER_TO_NPU_SMI_INTERVAL_MS, default 200 ms) and removed at exit.
 *
 *   dir = $TRANSFER_TO_NPU_SMI_DIR, else /dev/shm/transfer_to_npu-<uid>, else
 *         $XDG_RUNTIME_DIR/transfer_to_npu, else /tmp/transfer_to_npu-<uid> (mode 0700)
 *   TRANSFER_TO_NPU_SMI=0 publishes nothing.
 * File: {"pid":..,"name":"..","starttime":<ticks since boot, /proc/pid/stat field 22>,
 *        "updated":<unix seconds>,"devices":[{"device":0,"physical_id":0,"name":"..",
 *        "total":bytes,"used":bytes reserved by this process,"allocated":bytes,
 *        "peak":bytes,"allocations":n}, ...]}
 * npu-smi ignores entries whose pid is gone or whose starttime differs (a reused pid), so a
 * process killed without running its exit handler leaves nothing visible behind.
 *
 * DESIGN
 *
 * One publisher thread per process, started by npu_obs_init (from npu_init, the first CUDA
 * call; never from a constructor), detached. It polls npu_mem_get_stats (one mutex per
 * device, held for a few loads) and, when anything changed, writes <pid>.json.tmp and
 * renames it over <pid>.json, so readers never see a partial file. Polling rather than a hook
 * in the allocator keeps the allocation path untouched; the cost is one wake-up per interval
 * (the thread sleeps in pthread_cond_timedwait, it never spins).
 * Lock: smi_lock guards `stopping` and the file. The exit handler takes it (bounded wait),
 * sets stopping and unlinks the file; the publisher checks stopping under the lock before
 * each write, so no file reappears after exit. A forked child has no publisher and never
 * removes its parent's file (the handler checks the pid).
 */
#include "npu_obs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SMI_MAX_DEV 64

static pthread_mutex_t smi_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t smi_cv = PTHREAD_COND_INITIALIZER;
static int smi_on, stopping;
static pid_t smi_pid;
static char smi_dir[1024], smi_file[1200], smi_tmp[1200];
static long interval_ms = 200;

static int dir_ok(const char *d)
{
    if (mkdir(d, 0700) != 0 && errno != EEXIST)
        return 0;
    struct stat sb;
    return stat(d, &sb) == 0 && S_ISDIR(sb.st_mode) && access(d, W_OK | X_OK) == 0;
}

static int pick_dir(void)
{
    const char *e = npu_env("TRANSFER_TO_NPU_SMI_DIR");
    unsigned uid = (unsigned)getuid();
    if (e) {
        snprintf(smi_dir, sizeof smi_dir, "%s", e);
        return dir_ok(smi_dir);
    }
    snprintf(smi_dir, sizeof smi_dir, "/dev/shm/transfer_to_npu-%u", uid);
    if (dir_ok(smi_dir))
        return 1;
    e = npu_env("XDG_RUNTIME_DIR");
    if (e) {
        snprintf(smi_dir, sizeof smi_dir, "%s/transfer_to_npu", e);
        if (dir_ok(smi_dir))
            return 1;
    }
    snprintf(smi_dir, sizeof smi_dir, "/tmp/transfer_to_npu-%u", uid);
    return dir_ok(smi_dir);
}

static unsigned long long self_starttime(void)
{
    char buf[1024];
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0)
        return 0;
    buf[k] = 0;
    char *p = strrchr(buf, ')');
    for (int field = 2; p && *p; p++)
        if (*p == ' ' && ++field == 22)
            return strtoull(p + 1, NULL, 10);
    return 0;
}

static void json_str(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 7 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[k++] = '\\';
            out[k++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            out[k++] = (char)c;
        }
    }
    out[k] = 0;
}

/* Writes the file (smi_lock held). */
static void publish_locked(const npu_mem_stats_t *st, int ndev, unsigned long long starttime,
                           const char *name)
{
    char buf[16384];
    size_t k = 0;
    k += (size_t)snprintf(buf + k, sizeof buf - k,
                          "{\"pid\":%d,\"name\":\"%s\",\"starttime\":%llu,\"updated\":%lld,\"devices\":[",
                          (int)smi_pid, name, starttime, (long long)time(NULL));
    for (int d = 0; d < ndev && k < sizeof buf - 512; d++) {
        npu_device_props_t p;
        char pn[300] = "NPU";
        int phys = d;
        if (npu_device_get_props(d, &p) == NPU_OK) {
            json_str(pn, sizeof pn, p.name);
            phys = p.physical_id;
        }
        k += (size_t)snprintf(buf + k, sizeof buf - k,
                              "%s{\"device\":%d,\"physical_id\":%d,\"name\":\"%s\",\"total\":%zu,"
                              "\"used\":%zu,\"allocated\":%zu,\"peak\":%zu,\"allocations\":%zu}",
                              d ? "," : "", d, phys, pn, st[d].capacity, st[d].reserved,
                              st[d].allocated, st[d].peak_reserved, st[d].num_allocs);
    }
    k += (size_t)snprintf(buf + k, sizeof buf - k, "]}\n");
    if (k >= sizeof buf)
        return;
    int fd = open(smi_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    ssize_t w = write(fd, buf, k);
    close(fd);
    if (w == (ssize_t)k)
        rename(smi_tmp, smi_file);
    else
        unlink(smi_tmp);
}

static void *smi_main(void *arg)
{
    (void)arg;
    static npu_mem_stats_t last[SMI_MAX_DEV], cur[SMI_MAX_DEV];
    int published = 0, lastn = -1;
    char name[64] = "?", comm[64] = "";
    unsigned long long starttime = self_starttime();
    int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t k = read(fd, comm, sizeof comm - 1);
        close(fd);
        if (k > 0) {
            comm[k] = 0;
            comm[strcspn(comm, "\n")] = 0;
            json_str(name, sizeof name, comm);
        }
    }
    for (;;) {
        int n = npu_device_count();
        if (n > SMI_MAX_DEV)
            n = SMI_MAX_DEV;
        memset(cur, 0, sizeof cur);
        for (int d = 0; d < n; d++)
            npu_mem_get_stats(d, &cur[d]);
        pthread_mutex_lock(&smi_lock);
        if (stopping) {
            pthread_mutex_unlock(&smi_lock);
            return NULL;
        }
        if (!published || n != lastn || memcmp(cur, last, sizeof cur) != 0) {
            publish_locked(cur, n, starttime, name);
            memcpy(last, cur, sizeof cur);
            lastn = n;
            published = 1;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += interval_ms % 1000 * 1000000L;
        ts.tv_sec += interval_ms / 1000 + ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        while (!stopping)
            if (pthread_cond_timedwait(&smi_cv, &smi_lock, &ts) == ETIMEDOUT)
                break;
        int stop = stopping;
        pthread_mutex_unlock(&smi_lock);
        if (stop)
            return NULL;
    }
}

void npu_obs_smi_start(void)
{
    const char *e = npu_env("TRANSFER_TO_NPU_SMI");
    if (e && strcmp(e, "0") == 0)
        return;
    long long iv = npu_env_ll("TRANSFER_TO_NPU_SMI_INTERVAL_MS", 200);
    interval_ms = iv < 10 ? 10 : iv > 60000 ? 60000 : (long)iv;
    if (!pick_dir()) {
        NPU_DEBUG("npu-smi: no writable state directory; not publishing");
        return;
    }
    smi_pid = getpid();
    snprintf(smi_file, sizeof smi_file, "%s/%d.json", smi_dir, (int)smi_pid);
    snprintf(smi_tmp, sizeof smi_tmp, "%s/.%d.json.tmp", smi_dir, (int)smi_pid);
    pthread_attr_t a;
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&a, 256 * 1024);
    if (pthread_create(&t, &a, smi_main, NULL) == 0)
        smi_on = 1;
    pthread_attr_destroy(&a);
}

void npu_obs_smi_stop(void)
{
    if (!smi_on || getpid() != smi_pid)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 2;
    int locked = pthread_mutex_timedlock(&smi_lock, &ts) == 0;
    stopping = 1;
    unlink(smi_file);
    unlink(smi_tmp);
    if (locked) {
        pthread_cond_signal(&smi_cv);
        pthread_mutex_unlock(&smi_lock);
    }
}
