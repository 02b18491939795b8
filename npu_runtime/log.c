/*
 * log.c - logging, status names and environment configuration for the whole runtime.
 * TRANSFER_TO_NPU_LOG=error|warn|info|debug (or ASCEND_GLOBAL_LOG_LEVEL 0=debug 1=info
 * 2=warn 3=error 4=off) is read once. Each event is one line on stderr, written with a single
 * write(2) so lines from several threads never interleave.
 *
 * Progress line (npu_progress): a first run that spends more than ~2 s translating kernels
 * says so on stderr, so a slow first epoch is not a mystery. The line is written in place
 * ("\r", erase to end of line, no newline) while a compile runs and erased when it ends
 * (npu_progress_clear), before control goes back to the program; a final line (final=1) ends
 * with a newline and stays. Only when stderr is a terminal and the log level is warn or more
 * verbose; TRANSFER_TO_NPU_PROGRESS=0 (off, no, a negative number) switches it off, a number
 * sets the threshold in seconds. Leaving the in-place line standing between compiles (ended by
 * a timer) was tried first and dropped: a training script prints its loss microseconds after
 * the launch that compiled, and its output landed on the end of our line (test_progress.py).
 */
#include "npu.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const struct { const char *name, *msg; int sticky; } status_table[] = {
#define NPU_STATUS(name, sticky, msg) { #name, msg, sticky },
#include "npu_status.def"
#undef NPU_STATUS
};

const char *npu_status_name(npu_status_t s)
{
    return (unsigned)s < NPU_STATUS_COUNT ? status_table[s].name : "NPU_EUNKNOWN";
}

const char *npu_status_message(npu_status_t s)
{
    return (unsigned)s < NPU_STATUS_COUNT ? status_table[s].msg : "unknown status";
}

int npu_status_is_sticky(npu_status_t s)
{
    return (unsigned)s < NPU_STATUS_COUNT && status_table[s].sticky;
}

const char *npu_env(const char *name)
{
    const char *v = getenv(name);
    return (v && *v) ? v : NULL;
}

long long npu_env_ll(const char *name, long long dflt)
{
    const char *v = npu_env(name);
    if (!v)
        return dflt;
    char *end;
    double x = strtod(v, &end);
    if (end == v || x < 0)
        return dflt;
    while (*end && isspace((unsigned char)*end))
        end++;
    switch (toupper((unsigned char)*end)) {
    case 'K': x *= 1024.0; break;
    case 'M': x *= 1024.0 * 1024; break;
    case 'G': x *= 1024.0 * 1024 * 1024; break;
    case 'T': x *= 1024.0 * 1024 * 1024 * 1024; break;
    default: break;
    }
    return (long long)x;
}

static int log_level_value = -1;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void log_init(void)
{
    int lvl = NPU_LOG_WARN;
    const char *v = npu_env("TRANSFER_TO_NPU_LOG");
    const char *a = npu_env("ASCEND_GLOBAL_LOG_LEVEL");
    if (v) {
        if (!strcasecmp(v, "error")) lvl = NPU_LOG_ERROR;
        else if (!strcasecmp(v, "warn") || !strcasecmp(v, "warning")) lvl = NPU_LOG_WARN;
        else if (!strcasecmp(v, "info")) lvl = NPU_LOG_INFO;
        else if (!strcasecmp(v, "debug")) lvl = NPU_LOG_DEBUG;
        else if (!strcasecmp(v, "off") || !strcasecmp(v, "none")) lvl = NPU_LOG_OFF;
    } else if (a && a[0] >= '0' && a[0] <= '4' && a[1] == 0) {
        static const int map[5] = { NPU_LOG_DEBUG, NPU_LOG_INFO, NPU_LOG_WARN, NPU_LOG_ERROR, NPU_LOG_OFF };
        lvl = map[a[0] - '0'];
    }
    log_level_value = lvl;
}

int npu_log_level(void)
{
    if (__builtin_expect(log_level_value < 0, 0))
        pthread_once(&log_once, log_init);
    return log_level_value;
}

static struct log_sink { npu_log_sink_fn fn; void *data; int used; } log_sinks[16];
static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;
static int sink_count;                      /* registered sinks (read without the lock first) */
static __thread int in_sink;

void *npu_log_add_sink(npu_log_sink_fn fn, void *data)
{
    if (!fn)
        return NULL;
    void *h = NULL;
    pthread_mutex_lock(&sink_lock);
    for (int i = 0; i < 16 && !h; i++)
        if (!log_sinks[i].used) {
            log_sinks[i] = (struct log_sink){ fn, data, 1 };
            __atomic_add_fetch(&sink_count, 1, __ATOMIC_RELEASE);
            h = &log_sinks[i];
        }
    pthread_mutex_unlock(&sink_lock);
    return h;
}

int npu_log_remove_sink(void *handle, void **data)
{
    int rc = -1;
    pthread_mutex_lock(&sink_lock);
    for (int i = 0; i < 16; i++)
        if (handle == (void *)&log_sinks[i] && log_sinks[i].used) {
            log_sinks[i].used = 0;
            if (data)
                *data = log_sinks[i].data;
            __atomic_sub_fetch(&sink_count, 1, __ATOMIC_RELEASE);
            rc = 0;
        }
    pthread_mutex_unlock(&sink_lock);
    return rc;
}

static void log_to_sinks(int level, char *msg, size_t len)
{
    if (in_sink || __atomic_load_n(&sink_count, __ATOMIC_ACQUIRE) == 0)
        return;
    struct log_sink copy[16];
    int n = 0;
    pthread_mutex_lock(&sink_lock);
    for (int i = 0; i < 16; i++)
        if (log_sinks[i].used) copy[n++] = log_sinks[i];
    pthread_mutex_unlock(&sink_lock);
    in_sink = 1;
    for (int i = 0; i < n; i++)
        copy[i].fn(copy[i].data, level, msg, len);
    in_sink = 0;
}

/* ------------------------------------------------------------ progress ---- */
static double prog_thr;
static pthread_once_t prog_once = PTHREAD_ONCE_INIT;
static void prog_init(void)
{
    double t = 2.0;
    const char *v = npu_env("TRANSFER_TO_NPU_PROGRESS");
    if (v) {
        char *end;
        double x = strtod(v, &end);
        if (!strcasecmp(v, "off") || !strcasecmp(v, "no") || (end != v && x <= 0)) t = -1;
        else if (end != v) t = x;
    }
    if (t >= 0 && (npu_log_level() < NPU_LOG_WARN || !isatty(2))) t = -1;
    prog_thr = t;
}

double npu_progress_threshold(void)
{
    pthread_once(&prog_once, prog_init);
    return prog_thr;
}

void npu_progress(int final, const char *fmt, ...)
{
    static const char head[] = "\r\033[K[transfer_to_npu] ";
    const size_t h = sizeof head - 1;
    char buf[512];
    memcpy(buf, head, h);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + h, sizeof buf - h - 1, fmt, ap);
    va_end(ap);
    size_t len = h + (m < 0 ? 0 : (size_t)m >= sizeof buf - h - 1 ? sizeof buf - h - 2 : (size_t)m);
    if (final) {
        buf[len++] = '\n';
    } else {
        /* in place only works on one row: a wrapped line would leave its first rows behind */
        struct winsize ws;
        size_t cols = ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8 ? ws.ws_col : 80;
        if (len - 4 > cols - 1) len = 4 + cols - 1;     /* 4: "\r\033[K" */
    }
    if (write(2, buf, len) < 0) { /* stderr closed: nothing to tell */ }
}

void npu_progress_clear(void)
{
    if (write(2, "\r\033[K", 4) < 0) { /* stderr closed */ }
}

void npu_log(int level, const char *fmt, ...)
{
    static const char *names[] = { "OFF", "ERROR", "WARN", "INFO", "DEBUG" };
    char buf[2048];
    int n = snprintf(buf, sizeof buf, "[transfer_to_npu %d %s] ", (int)getpid(),
                     names[level < 0 ? 0 : level > 4 ? 4 : level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof buf - 2)
        len = sizeof buf - 2;
    if (len == 0 || buf[len - 1] != '\n')
        buf[len++] = '\n';
    if (write(2, buf, len) < 0) { /* stderr closed: nothing to do */ }
    if (level == NPU_LOG_ERROR || level == NPU_LOG_WARN) {
        buf[len - 1] = '\0';            /* the message alone, NUL-terminated, for the sinks */
        log_to_sinks(level, buf + n, len - 1 - (size_t)n);
    }
}

uint64_t npu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
