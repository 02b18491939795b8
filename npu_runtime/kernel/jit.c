/*
 * jit.c - compile generated C to a shared object, cache it on disk, dlopen it.
 *
 * Cache: TRANSFER_TO_NPU_CACHE (default ~/.cache/transfer_to_npu; /tmp/transfer_to_npu-<uid>
 * when that cannot be created). File name: 32 hex digits of a 128-bit FNV-1a hash (our code)
 * of (generated C source + compiler command + flags + CPU model/flags, for -march=native).
 * The generated C embeds the translator
 * version, the kabi text (NPU_KABI_VERSION), the entry and every .func and variable
 * declaration it uses, so hashing it covers everything the spec's key lists, and nothing can
 * make two different kernels share a file. Translating again to compute the key costs
 * ~1 ms for a typical kernel (parse + emit), against 60-150 ms for the compiler.
 * Writes are atomic: compile to <hash>.<pid>.<n>.tmp.so, then rename(2), so concurrent
 * processes (or threads) compiling the same kernel both succeed and share one file.
 *
 * Compiler: $TRANSFER_TO_NPU_CC or cc, flags JIT_FLAGS (below) + -lm, run with posix_spawn and an environment
 * without LD_PRELOAD (and without our library folder on LD_LIBRARY_PATH), so the compiler
 * does not load the runtime. Its stderr goes to a file that is logged on failure (NPU_EJIT).
 * Measured (bench/bench_jit.c, 2 vCPU, gcc 12): idle machine vectorAdd 76 ms, shfl reduction
 * ~150 ms; with other builds running (load 6-7) vectorAdd 160-240 ms, reduction 170-270 ms,
 * libm-heavy kernel with printf 330-400 ms, tiled matmul 230-300 ms. Cached (translate +
 * dlopen): 0.2-1.6 ms. -O1 saved only ~20% of compile time then, so -O2 stayed.
 * Lane groups (ptx_emit.c) roughly double the C of barrier kernels, and -O2 then took
 * 340-380 ms for bench_kernels' reduction and tiled SGEMM (standalone, idle machine: reduction
 * 0.14 s without lanes, 0.37-0.40 s with). "-O1 -finline-small-functions" plus the two
 * vectorizers with gcc's -O2 cost model ("very-cheap": no versioned loops) compiles them in
 * 0.22-0.26 s (bench_kernels first launch: reduction 260 ms, SGEMM 235 ms, transpose 168 ms,
 * histogram 144 ms) and ran the six bench kernels within 0-10% of -O2 in the same runs.
 * -fno-trapping-math: CUDA has no floating-point traps, and without it gcc would not turn the
 * selects of a float compare into vector blends (if-conversion may not speculate an FP op that
 * could trap), so a lane loop with one stayed scalar: CuPy's exp (nvcc's expf: fma.rm plus
 * ex2.approx) 265 -> 85 us per 256x128 launch; bench_kernels unchanged or faster in the same
 * run. Rounding is unaffected (that is -frounding-math, which stays off: the prelude's
 * fesetround paths use volatile operands).
 *
 * private_copy: dlopen returns the same handle for the same path, but each module needs its
 * own npu_globals table; module.c asks for a private copy (a hard copy dlopened under a
 * unique name, then unlinked) when another module already uses the cached file.
 * Thread-safety: callable from any thread; no shared state except the temp-name counter.
 */
#include "ptx_internal.h"
#include "../npu_obs.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define JIT_FLAGS "-O1 -finline-small-functions -ftree-loop-vectorize -ftree-slp-vectorize -fvect-cost-model=very-cheap -fPIC -shared -ffp-contract=off -fno-trapping-math -fno-strict-aliasing -march=native -w"

const char *npu_jit_flags(void) { return JIT_FLAGS; }

void npu_jit_hash128(const void *data, size_t len, uint64_t out[2])
{
    /* FNV-1a, 128-bit: offset basis 0x6c62272e07bb014262b821756295c58d, prime 2^88 + 0x13b */
    unsigned __int128 h = ((unsigned __int128)0x6c62272e07bb0142ull << 64) | 0x62b821756295c58dull;
    const unsigned __int128 prime = ((unsigned __int128)1 << 88) | 0x13b;
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= prime;
    }
    out[0] = (uint64_t)(h >> 64);
    out[1] = (uint64_t)h;
}

static int mkdir_p(const char *path)
{
    char buf[512];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    }
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
    return access(buf, W_OK) == 0 ? 0 : -1;
}

static int cache_dir(char *out, size_t n)
{
    const char *c = npu_env("TRANSFER_TO_NPU_CACHE");
    if (c) snprintf(out, n, "%s", c);
    else {
        const char *home = npu_env("HOME");
        if (home) snprintf(out, n, "%s/.cache/transfer_to_npu", home);
        else snprintf(out, n, "/tmp/transfer_to_npu-%u", (unsigned)getuid());
    }
    if (mkdir_p(out) == 0) return 0;
    snprintf(out, n, "/tmp/transfer_to_npu-%u", (unsigned)getuid());
    return mkdir_p(out);
}

/* Environment for the compiler: no LD_PRELOAD, no folder of ours on LD_LIBRARY_PATH. */
static char **clean_env(void)
{
    char ourdir[512] = "";
    Dl_info di;
    if (dladdr((void *)&npu_jit_hash128, &di) && di.dli_fname) {
        snprintf(ourdir, sizeof ourdir, "%s", di.dli_fname);
        char *sl = strrchr(ourdir, '/');
        if (sl) *sl = 0; else ourdir[0] = 0;
    }
    size_t n = 0;
    while (environ && environ[n]) n++;
    char **env = calloc(n + 1, sizeof(char *));
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *e = environ[i];
        if (!strncmp(e, "LD_PRELOAD=", 11)) continue;
        if (!strncmp(e, "LD_LIBRARY_PATH=", 16) && ourdir[0]) {
            const char *v = e + 16;
            size_t cap = strlen(e) + 1;
            char *ne = malloc(cap);
            if (!ne) continue;
            strcpy(ne, "LD_LIBRARY_PATH=");
            int first = 1;
            while (*v) {
                const char *c = strchr(v, ':');
                size_t len = c ? (size_t)(c - v) : strlen(v);
                if (!(len == strlen(ourdir) && !strncmp(v, ourdir, len))) {
                    if (!first) strcat(ne, ":");
                    strncat(ne, v, len);
                    first = 0;
                }
                v += len + (c ? 1 : 0);
            }
            env[k++] = ne;
            continue;
        }
        env[k++] = strdup(e);
    }
    env[k] = NULL;
    return env;
}

static void free_env(char **env)
{
    for (size_t i = 0; env && env[i]; i++) free(env[i]);
    free(env);
}

static int write_file(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) { if (errno == EINTR) continue; close(fd); return -1; }
        off += (size_t)w;
    }
    return close(fd);
}

static void log_file_tail(const char *path, const char *what)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < 40) {
        size_t l = strlen(line);
        if (l && line[l - 1] == '\n') line[l - 1] = 0;
        NPU_ERR("jit: %s: %s", what, line);
        n++;
    }
    fclose(f);
}

static npu_status_t run_compiler(const char *cfile, const char *sofile, const char *errfile, const char *what)
{
    const char *cc = npu_env("TRANSFER_TO_NPU_CC");
    if (!cc) cc = "cc";
    char flags[] = JIT_FLAGS;
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)cc;
    for (char *tok = strtok(flags, " "); tok && argc < 24; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc++] = (char *)"-o";
    argv[argc++] = (char *)sofile;
    argv[argc++] = (char *)cfile;
    argv[argc++] = (char *)"-lm";
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 2, 1);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    char **env = clean_env();
    pid_t pid;
    int rc = posix_spawnp(&pid, cc, &fa, NULL, argv, env ? env : environ);
    posix_spawn_file_actions_destroy(&fa);
    free_env(env);
    if (rc != 0) {
        NPU_ERR("jit: %s: cannot start the C compiler '%s': %s", what, cc, strerror(rc));
        return NPU_EJIT;
    }
    int status = 0;
    pid_t w;
    do w = waitpid(pid, &status, 0); while (w < 0 && errno == EINTR);
    int ok;
    if (w < 0) ok = access(sofile, R_OK) == 0;   /* SIGCHLD ignored by the host program */
    else ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
        NPU_ERR("jit: %s: C compiler failed (%s %s); its output:", what, cc, JIT_FLAGS);
        log_file_tail(errfile, what);
        return NPU_EJIT;
    }
    return NPU_OK;
}

/* -march=native: a cache shared between machines (an NFS home) must not hand one CPU's code
 * to another, so the key includes the CPU's model name and feature flags (read once). */
static char cpu_id[2048];
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static void read_cpu_id(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[4096];
    size_t n = 0;
    int got_model = 0, got_flags = 0;
    while (fgets(line, sizeof line, f) && !(got_model && got_flags)) {
        int is_model = !strncmp(line, "model name", 10), is_flags = !strncmp(line, "flags", 5);
        if ((is_model && !got_model) || (is_flags && !got_flags)) {
            uint64_t h[2];
            npu_jit_hash128(line, strlen(line), h);
            n += (size_t)snprintf(cpu_id + n, sizeof cpu_id - n, "%016llx", (unsigned long long)h[0]);
            got_model |= is_model;
            got_flags |= is_flags;
        }
    }
    fclose(f);
}

static unsigned long tmp_counter;

/* First-run progress (log.c's npu_progress): compiles are counted and timed for the whole
 * process; once their total passes the threshold (2 s by default) each further compile shows
 * one in-place line on a terminal while it runs (kernels so far, seconds, the kernel's name)
 * and erases it when done, and the exit prints one summary line that stays. */
static pthread_mutex_t prog_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long prog_count;
static uint64_t prog_total_ns;
static int prog_shown, prog_busy;

static void jit_progress_exit(void)
{
    pthread_mutex_lock(&prog_lock);
    if (prog_busy) npu_progress_clear();
    npu_progress(1, "translated %lu kernels for the NPU in %.1f s; the next run loads them from the cache",
                 prog_count, prog_total_ns / 1e9);
    pthread_mutex_unlock(&prog_lock);
}

/* Before a compile: the in-place line when past the threshold; returns whether one is shown. */
static int jit_progress_begin(const char *what)
{
    double thr = npu_progress_threshold();
    if (thr < 0) return 0;
    pthread_mutex_lock(&prog_lock);
    double secs = prog_total_ns / 1e9;
    int show = secs >= thr;
    if (show) {                /* (the compile that crossed the threshold registered the summary) */
        prog_busy++;
        /* the kernel's demangled name without template arguments or parameters */
        char dm[1024];
        const char *name = npu_obs_demangle(what, dm, sizeof dm);
        if (!strncmp(name, "void ", 5)) name += 5;
        int nl = (int)strcspn(name, "<(");
        npu_progress(0, "translating kernels for the NPU (first run, cached for next runs): %lu done, %.1f s, now %.*s",
                     prog_count, secs, nl, name);
    }
    pthread_mutex_unlock(&prog_lock);
    return show;
}

static void jit_progress_end(int shown, uint64_t ns)
{
    if (npu_progress_threshold() < 0) return;
    pthread_mutex_lock(&prog_lock);
    prog_count++;
    prog_total_ns += ns;
    if (shown && --prog_busy == 0) npu_progress_clear();
    /* the compile that crosses the threshold registers the summary */
    if (!prog_shown && prog_total_ns / 1e9 >= npu_progress_threshold()) { prog_shown = 1; atexit(jit_progress_exit); }
    pthread_mutex_unlock(&prog_lock);
}

npu_status_t npu_jit_load(const char *csrc, size_t len, const char *what, int private_copy,
                          npu_jit_result_t *out)
{
    memset(out, 0, sizeof *out);
    char dir[400];
    if (cache_dir(dir, sizeof dir) != 0) {
        NPU_ERR("jit: %s: no writable kernel cache directory (%s)", what, dir);
        return NPU_EJIT;
    }
    const char *cc = npu_env("TRANSFER_TO_NPU_CC");
    size_t klen = len + 256;
    char *key = malloc(klen);
    if (!key) return NPU_EHOSTMEM;
    memcpy(key, csrc, len);
    pthread_once(&cpu_once, read_cpu_id);
    int extra = snprintf(key + len, 256, "\n//%s %s lm %s", cc ? cc : "cc", JIT_FLAGS, cpu_id);
    if (extra < 0) extra = 0;
    if (extra > 255) extra = 255;
    uint64_t h[2];
    npu_jit_hash128(key, len + (size_t)extra, h);
    free(key);
    char so[512];
    snprintf(so, sizeof so, "%s/%016llx%016llx.so", dir, (unsigned long long)h[0], (unsigned long long)h[1]);
    snprintf(out->path, sizeof out->path, "%s", so);
    uint64_t t0 = npu_now_ns();
    if (access(so, R_OK) == 0) {
        out->from_cache = 1;
    } else {
        unsigned long n = __atomic_add_fetch(&tmp_counter, 1, __ATOMIC_RELAXED);
        char cfile[560], tso[560], errf[560];
        snprintf(cfile, sizeof cfile, "%s.%d.%lu.c", so, (int)getpid(), n);
        snprintf(tso, sizeof tso, "%s.%d.%lu.tmp.so", so, (int)getpid(), n);
        snprintf(errf, sizeof errf, "%s.%d.%lu.err", so, (int)getpid(), n);
        if (write_file(cfile, csrc, len) != 0) {
            NPU_ERR("jit: %s: cannot write %s: %s", what, cfile, strerror(errno));
            return NPU_EJIT;
        }
        int shown = jit_progress_begin(what);
        npu_status_t st = run_compiler(cfile, tso, errf, what);
        jit_progress_end(shown, npu_now_ns() - t0);
        if (st == NPU_OK && rename(tso, so) != 0) {
            NPU_ERR("jit: %s: cannot rename %s: %s", what, tso, strerror(errno));
            st = NPU_EJIT;
        }
        if (st != NPU_OK && npu_env("NPU_PTX_KEEP")) NPU_ERR("jit: %s: kept generated C in %s", what, cfile);
        else unlink(cfile);
        unlink(errf);
        unlink(tso);
        if (st != NPU_OK) return st;
        out->compile_ns = npu_now_ns() - t0;
        NPU_INFO("jit: compiled %s in %.1f ms -> %s", what, out->compile_ns / 1e6, so);
    }
    const char *path = so;
    char priv[560];
    if (private_copy) {
        unsigned long n = __atomic_add_fetch(&tmp_counter, 1, __ATOMIC_RELAXED);
        snprintf(priv, sizeof priv, "%s.%d.%lu.priv.so", so, (int)getpid(), n);
        FILE *in = fopen(so, "rb"), *o = in ? fopen(priv, "wb") : NULL;
        int ok = in && o;
        char buf[65536];
        size_t r;
        while (ok && (r = fread(buf, 1, sizeof buf, in)) > 0)
            ok = fwrite(buf, 1, r, o) == r;
        if (in) fclose(in);
        if (o && fclose(o) != 0) ok = 0;
        if (!ok) { unlink(priv); NPU_ERR("jit: %s: cannot copy %s", what, so); return NPU_EJIT; }
        path = priv;
    }
    out->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (private_copy) unlink(priv);
    if (!out->handle) {
        NPU_ERR("jit: %s: dlopen %s failed: %s", what, path, dlerror());
        if (out->from_cache) unlink(so);   /* a damaged cache file: the next try recompiles */
        return NPU_EJIT;
    }
    return NPU_OK;
}
