/*
 * exec.c - grid execution: block workers, fibers for thread-mode blocks, barriers, warp
 * collectives, faults, and the npu_krt_t table that translated kernels call.
 * (Launch checks, parameter packing and stream submission: exec_launch.c.)
 *
 * DESIGN
 *  Runners. A grid's blocks run on "runners": the thread that calls npu_exec_grid (usually a
 *  stream worker) plus a pool of TRANSFER_TO_NPU_THREADS - 1 block workers (default: online
 *  CPUs - 1, so runners == CPUs), created lazily on the first grid with more than one block.
 *  A 1-block grid never touches the pool: the caller runs it inline (no wake-up on the
 *  launch path; a wake costs 47-60 us in this VM against ~0.1 us for a spinning hand-off).
 *  Queue. Grids with more than one block are published on pool.active (a list guarded by
 *  pool.lock, held only to link/unlink a grid or to take a reference on it), then pool.gen (a
 *  futex word) is bumped and sleeping workers are woken (at most nblocks - 1 of them).
 *  Idle workers spin on pool.gen for TRANSFER_TO_NPU_SPIN_US (default 100 us; pause, and a
 *  sched_yield every 64 pauses so that a host thread sharing the core is not starved), then
 *  sleep on it. Blocks are claimed from grid.next with a CAS, in increasing linear order, in
 *  chunks of 1..64 blocks (nblocks / (8 * runners)), so a block never waits on a block that
 *  has not been claimed yet: CUB-style single-pass scans that spin on earlier blocks' flags
 *  make progress.
 *  Ownership. The grid lives on the caller's stack. A worker takes a reference (grid.refs)
 *  under pool.lock before touching it; the caller unlinks the grid when it can claim no more
 *  blocks, waits for grid.finished (set by whoever completes the last block; futex-woken
 *  if the caller went to sleep after spinning) and then for refs == 0 before returning.
 *  Faults. The first failing block sets grid.status (CAS from NPU_OK) and cancels the unclaimed
 *  blocks (grid.next is exchanged to nblocks and the skipped blocks count as done); blocks
 *  already running finish. The grid returns the status; the stream work item returns it, so
 *  the stream layer makes it sticky.
 *  Blocks. Each runner owns an exec_worker_t: a reusable shared-memory buffer (not zeroed),
 *  the block context, and for thread-mode blocks a set of fibers with guarded stacks
 *  (see "Fiber stack sets" below). Block mode: block_fn(b, params) under sigsetjmp;
 *  rt->trap & co. siglongjmp back. Thread mode: every CUDA thread is a fiber; a scheduler
 *  loop on the runner's own stack resumes runnable fibers in FIFO order (a run queue); a
 *  fiber runs until it blocks in a barrier or warp collective, or exits. The last arriver
 *  completes the collective for everybody, queues the others and keeps running. No runnable
 *  fiber but live ones: deadlock, the block is abandoned with NPU_EDEADLOCK. All fiber state
 *  belongs to one runner thread, so the scheduler and collectives take no locks.
 *  Wild pointers (fault isolation). At the first grid (never in a constructor) a SIGSEGV and
 *  SIGBUS handler is installed (SA_SIGINFO | SA_ONSTACK | SA_NODEFER); every runner thread
 *  gets a 64 KiB sigaltstack unless it has one, so a fiber-stack overflow into a guard page
 *  is caught too. The handler acts only when the faulting thread (gettid) is a registered
 *  runner (fi_runners, no TLS in the handler) with in_kernel set (around the kernel dispatch
 *  in run_block, cleared around the krt calls that take libc locks): it records signal,
 *  si_addr and the thread (thread mode: the running fiber; block mode: w->hdr.cur_lin, which
 *  the generated thread loop stores through b->exec, one volatile store per thread) and
 *  leaves like a trap: siglongjmp to run_block, or in thread
 *  mode a switch from the fiber to the scheduler; the abandoned fibers are re-made for the
 *  next block, so their stacks are reused. The grid fails with NPU_EILLEGALADDR (guard page:
 *  NPU_ELAUNCHFAIL, "stack overflow"), sticky in the stream layer; run_block logs kernel,
 *  block, thread and address. Any other SIGSEGV/SIGBUS (the runtime's own bugs, the host
 *  program's faults, kill()) is passed on: to the previous handler, else the default action
 *  is restored and the fault re-executes, killing the process as without us.
 *  TRANSFER_TO_NPU_FAULT_ISOLATION=0 installs nothing. A handler the program installs after
 *  the first launch replaces ours (checking at every launch would cost a system call):
 *  kernel faults then reach the program's handler, as they would without us. Pool workers block every signal
 *  except SIGSEGV/SIGBUS/SIGILL/SIGFPE (a blocked synchronous fault kills the process).
 *  Cost of the block-mode thread index store: measured in ptx_emit.c's header.
 *  Limits of fibers without preemption: a thread that spins on memory written by another
 *  thread of its own block (no barrier in between) never lets it run; a lane that exits
 *  while others spin is fine. Cooperative launches (grid.sync) need every block resident at
 *  once plus a grid workspace behind %envreg1/2, neither of which exists yet.
 *
 * Measured (2-vCPU guest, shared with other jobs, so +-50%): a thread-mode barrier costs
 * ~10 ns per thread for 32-thread blocks and ~13 ns for 256 (thread CPU time): the cache
 * lines of each fiber's stack dominate, not the switch instructions (dropping the MXCSR/x87
 * save changed nothing). Switching directly to the next runnable fiber instead of through
 * the scheduler halved it (33 -> 16 ns for 256 threads); prefetching the record and saved
 * frame of the fiber after next gave 16 -> 12.8 ns (two ahead: no further gain). Creating
 * and retiring a fiber costs ~25 ns per CUDA thread per block.
 * Launch + sync of an empty 1-block kernel: ~0.9 us (stream round trip alone ~0.6 us).
 * bench/bench_exec.c prints these next to their references.
 */
#include "npu_kernel.h"
#include "exec_internal.h"
#include "fiber.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif


/* ------------------------------------------------------------------ helpers ---- */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr, int n)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* -------------------------------------------------------------- structures ---- */
enum { FB_RUNNABLE = 0, FB_RUNNING, FB_BLOCKED, FB_EXITED };
enum { COLL_SYNC = 0, COLL_SHFL, COLL_VOTE, COLL_MATCH_ANY, COLL_MATCH_ALL, COLL_REDUX, COLL_WMMA };
enum { WAIT_NONE = 0, WAIT_BAR, WAIT_WARP };

typedef struct exec_worker exec_worker_t;

typedef struct exec_fiber {
    npu_fiber_ctx_t ctx;
    npu_tctx_t t;
    exec_worker_t *w;
    uint8_t state, wait, coll, mode;
    uint32_t mask, b, c;
    uint64_t val;
    uint32_t result, pred;
    uint32_t site;              /* activemask: the instruction's id */
    uint32_t *wout;             /* wmma.mma: where this lane's d fragment goes (val: its a/b/c) */
    void (*wfn)(const uint32_t *, uint32_t *, int);   /* ... the kernel's MMA */
    int bar_op;
    struct exec_fiber *bar_next;
    uint32_t rs[16];            /* warp lockstep: reconvergence points entered (ptx_lockstep.c) */
    uint8_t rsd;                /* ... how many */
    uint32_t rcid;              /* ... the point this lane waits at in ls_reconv */
} exec_fiber_t;

typedef struct exec_warp {
    uint32_t arrived;           /* lanes blocked in a warp collective */
    uint32_t exited;            /* exited lanes and lanes past the end of the block */
    uint32_t blocked;           /* lanes suspended anywhere (collective, barrier, activemask) */
    uint32_t am_pending;        /* lanes waiting in activemask */
    uint32_t ls_pending;        /* lanes waiting in ls_step (warp lockstep) */
    uint32_t rc_pending;        /* lanes waiting in ls_reconv */
} exec_warp_t;

typedef struct exec_bar {
    uint32_t arrived, count;
    uint32_t popc;
    int all, any;
    exec_fiber_t *head, *tail;  /* waiting fibers (bar.sync / bar.red), FIFO */
} exec_bar_t;

typedef struct exec_grid {
    npu_kfunc_info_t *info;
    uint32_t grid[3], block[3];
    uint32_t nthreads, shared_size, dyn_off;
    uint64_t nblocks, chunk, id;
    const uint8_t *params;
    _Atomic uint64_t next;
    _Atomic uint64_t done;
    _Atomic int status;
    _Atomic int refs;
    _Atomic uint32_t finished;
    _Atomic int sleeping;
    struct exec_grid *link_next, *link_prev;
} exec_grid_t;

struct exec_worker {
    /* First member on purpose: b->exec == this worker; generated code stores the running
     * thread's index in hdr.cur_lin and reads the memcheck cache (npu_kabi.h). */
    npu_kexec_hdr_t hdr;
    unsigned smid;
    int busy;                   /* running a block (nested npu_exec_grid gets its own worker) */
    uint8_t *shared;
    size_t shared_cap;
    /* thread mode */
    npu_fiber_stacks_t stacks;
    exec_fiber_t *fibers;
    unsigned nthreads, nexited;
    uint32_t *runq;
    unsigned rq_head, rq_tail;  /* ring of EXEC_MAX_THREADS entries; each fiber at most once */
    exec_warp_t warps[EXEC_MAX_THREADS / 32];
    exec_bar_t bars[16];
    uint32_t bars_used;         /* barriers with arrivals pending (bit per id) */
    npu_fiber_ctx_t sched;
    exec_fiber_t *cur;          /* running fiber, NULL in the scheduler */
    npu_kthread_fn thread_fn;
    /* block */
    int thread_mode;
    sigjmp_buf jb;
    npu_status_t abort;
    exec_grid_t *grid;
    npu_bctx_t b;
    uint64_t prepared_id;
    /* fault isolation: what the signal handler saw, logged once back in run_block */
    int fault_sig;
    uint64_t fault_addr;
    uint32_t fault_tid[3];
    int fault_tid_known;
    pid_t tid;                  /* kernel thread id of the runner's thread (fi_runners) */
    int fi_slot;                /* 1 + index in fi_runners, 0 = not registered */
    volatile int in_kernel;     /* inside translated kernel code (the fault handler acts) */
    void *altstack;             /* sigaltstack of this runner thread (ours), or NULL */
    size_t altstack_size;
    /* memcheck: the runner thread's stack, the phase-mode block state registered by the
     * generated code, and the last allocation an access was found valid in */
    uintptr_t stk_lo, stk_hi, state_lo, state_hi;
};

static const npu_krt_t exec_krt;

/* -------------------------------------------------------------------- pool ---- */
static struct {
    pthread_once_t once;
    int nrunners;
    int spin_us;
    size_t stack_size;
    pthread_mutex_t lock;
    exec_grid_t *active;
    _Atomic uint32_t gen;
    _Atomic int sleepers;
    _Atomic uint64_t grid_ids;
    pthread_key_t key;
    int memcheck;
} pool = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER };

static __thread exec_worker_t *tls_worker;

/* ---------------------------------------------------------- fault isolation ---- */
/* Runners by kernel thread id, so that the SIGSEGV/SIGBUS handler finds the faulting thread's
 * runner without TLS: an initial-exec TLS variable made dlopen of the library fail ("cannot
 * allocate memory in static TLS block", the Python bridge), and a dynamic-TLS access from a
 * signal handler on a thread that never touched the variable may allocate. A runner is in
 * kernel code while w->in_kernel is set (only by its own thread). */
#define FI_MAX_RUNNERS 1024
static exec_worker_t *_Atomic fi_runners[FI_MAX_RUNNERS];

static void runner_register(exec_worker_t *w, pid_t tid)
{
    w->tid = tid;
    for (int i = 0; i < FI_MAX_RUNNERS; i++) {
        exec_worker_t *none = NULL;
        if (atomic_compare_exchange_strong(&fi_runners[i], &none, w)) {
            w->fi_slot = i + 1;
            return;
        }
    }
}

static void runner_unregister(exec_worker_t *w)
{
    if (w->fi_slot)
        atomic_store(&fi_runners[w->fi_slot - 1], NULL);
    w->fi_slot = 0;
}

static exec_worker_t *runner_in_kernel(pid_t tid)
{
    for (int i = 0; i < FI_MAX_RUNNERS; i++) {
        exec_worker_t *w = atomic_load_explicit(&fi_runners[i], memory_order_acquire);
        if (w && w->tid == tid && w->in_kernel)
            return w;
    }
    return NULL;
}

static struct {
    pthread_once_t once;
    int enabled;
    struct sigaction old_segv, old_bus;
} fi = { .once = PTHREAD_ONCE_INIT };

enum { ALTSTACK_SIZE = 64 * 1024 };

/* Not ours: behave as if we were not installed. A previous handler is called (it sees the
 * same siginfo/context); the default action is restored, and the faulting instruction runs
 * again on return and kills the process with the signal (a kill()-sent one is re-raised). */
static void fault_chain(int sig, siginfo_t *si, void *uc)
{
    struct sigaction *old = sig == SIGBUS ? &fi.old_bus : &fi.old_segv;
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, si, uc);
        return;
    }
    if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
        return;
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (!si || si->si_code <= 0)
        raise(sig);
}

__attribute__((noreturn)) static void exec_abort(exec_worker_t *w, npu_status_t st);

static int in_fiber_guard(const exec_worker_t *w, uintptr_t a)
{
    const npu_fiber_stacks_t *st = &w->stacks;
    if (!st->map || a < (uintptr_t)st->map || a >= (uintptr_t)st->map + st->map_size)
        return 0;
    return (a - (uintptr_t)st->map) % (st->stack_size + 4096) < 4096;
}

/* Async-signal context: only records the fault in the runner and leaves the block
 * (siglongjmp to run_block, or a switch to the fiber scheduler); run_block logs it. Kernel
 * code holds no runtime lock; the krt calls that take one (printf, malloc, free) clear
 * w->in_kernel for their duration, so a fault in them is a runtime crash as before. */
static void fault_handler(int sig, siginfo_t *si, void *uc)
{
    exec_worker_t *w = runner_in_kernel((pid_t)syscall(SYS_gettid));
    /* thread mode outside a fiber is the scheduler: runtime code, not the kernel */
    if (!w || !w->busy || !si || si->si_code <= 0 || (w->thread_mode && !w->cur)) {
        fault_chain(sig, si, uc);
        return;
    }
    w->in_kernel = 0;
    uintptr_t a = (uintptr_t)si->si_addr;
    w->fault_sig = sig;
    w->fault_addr = (uint64_t)a;
    w->fault_tid_known = 0;
    if (w->thread_mode && w->cur) {
        memcpy(w->fault_tid, w->cur->t.tid, sizeof w->fault_tid);
        w->fault_tid_known = 1;
    } else if (w->hdr.cur_lin != UINT32_MAX && w->grid) {
        uint32_t lin = w->hdr.cur_lin, nx = w->grid->block[0], ny = w->grid->block[1];
        w->fault_tid[0] = lin % nx;
        w->fault_tid[1] = (lin / nx) % ny;
        w->fault_tid[2] = lin / (nx * ny);
        w->fault_tid_known = 1;
    }
    int overflow = in_fiber_guard(w, a) ||
                   (w->stk_lo && a < w->stk_lo + 4096 && a + 256 * 1024 >= w->stk_lo);
    exec_abort(w, overflow ? NPU_ELAUNCHFAIL : NPU_EILLEGALADDR);
}

static void fault_install(void)
{
    fi.enabled = npu_env_ll("TRANSFER_TO_NPU_FAULT_ISOLATION", 1) != 0;
    if (!fi.enabled)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    /* SA_NODEFER: we leave the handler with siglongjmp / a fiber switch, without restoring
     * a signal mask (sigsetjmp(jb, 0): no system call per block), so SIGSEGV must not stay
     * blocked afterwards. */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &fi.old_segv) != 0 || sigaction(SIGBUS, &sa, &fi.old_bus) != 0) {
        NPU_WARN("exec: cannot install the kernel fault handler: wild pointers in kernels will "
                 "crash the process");
        fi.enabled = 0;
    }
}

/* Each runner thread gets an alternate signal stack, so that a fiber-stack overflow (guard
 * page) can be handled; a thread that already has one (the host's own) keeps it. */
static void runner_altstack(exec_worker_t *w)
{
    stack_t cur;
    if (sigaltstack(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE))
        return;
    void *p = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    stack_t ss = { .ss_sp = p, .ss_size = ALTSTACK_SIZE, .ss_flags = 0 };
    if (sigaltstack(&ss, NULL) != 0) {
        munmap(p, ALTSTACK_SIZE);
        return;
    }
    w->altstack = p;
    w->altstack_size = ALTSTACK_SIZE;
}

/* The runner thread's own stack: memcheck allows generic accesses to .local data there, and
 * a fault just below it is reported as a stack overflow. */
static void runner_stack_range(exec_worker_t *w)
{
    pthread_attr_t a;
    void *lo = NULL;
    size_t sz = 0;
    if (pthread_getattr_np(pthread_self(), &a) != 0)
        return;
    if (pthread_attr_getstack(&a, &lo, &sz) == 0) {
        w->stk_lo = (uintptr_t)lo;
        w->stk_hi = (uintptr_t)lo + sz;
    }
    pthread_attr_destroy(&a);
}

/* Only on the runner's own thread (thread-exit key destructor or the thread itself). */
static void runner_altstack_free(exec_worker_t *w)
{
    if (!w->altstack)
        return;
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == w->altstack) {
        stack_t off = { .ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE };
        sigaltstack(&off, NULL);
    }
    munmap(w->altstack, w->altstack_size);
    w->altstack = NULL;
}

/* Fiber stack sets. One mapping per set with a PROT_NONE guard page under every stack, so a
 * set of n stacks costs 2n memory mappings, and vm.max_map_count is 65530 by default. A set
 * holds as many stacks as the largest block its worker ran (rounded up to 64), not
 * EXEC_MAX_THREADS: with 1024-stack sets (2048 mappings each), 16 host threads, their 32
 * stream workers (which run blocks in npu_exec_help) and the pool reached 47.6K mappings in
 * tests/tsan/stress16, and pthread_create and mmap failed with EAGAIN/ENOMEM in about 1 run
 * in 10. Threads that run blocks only now and then (a host thread or stream worker helping in
 * npu_exec_help, a nested launch's private worker, any runner at thread exit) put their set
 * back in this small cache, and the next worker without a set takes it (no mmap + 256
 * mprotect per help). */
#define STACK_CACHE_MAX 8
static struct {
    pthread_mutex_t lock;
    int n;
    npu_fiber_stacks_t set[STACK_CACHE_MAX];
} stack_cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The worker's set goes to the cache, or is unmapped when the cache is full; st is empty after. */
static void stacks_put_back(npu_fiber_stacks_t *st)
{
    if (!st->map)
        return;
    int cached = 0;
    pthread_mutex_lock(&stack_cache.lock);
    if (stack_cache.n < STACK_CACHE_MAX) {
        stack_cache.set[stack_cache.n++] = *st;
        cached = 1;
    }
    pthread_mutex_unlock(&stack_cache.lock);
    if (cached)
        memset(st, 0, sizeof *st);
    else
        npu_fiber_stacks_free(st);
}

/* A cached set with at least count stacks of at least size bytes; 0 if none. */
static int stacks_take(npu_fiber_stacks_t *st, unsigned count, size_t size)
{
    int got = 0;
    pthread_mutex_lock(&stack_cache.lock);
    for (int i = 0; i < stack_cache.n; i++) {
        if (stack_cache.set[i].count >= count && stack_cache.set[i].stack_size >= size) {
            *st = stack_cache.set[i];
            stack_cache.set[i] = stack_cache.set[--stack_cache.n];
            got = 1;
            break;
        }
    }
    pthread_mutex_unlock(&stack_cache.lock);
    return got;
}

static void worker_free(exec_worker_t *w)
{
    if (!w)
        return;
    runner_unregister(w);
    runner_altstack_free(w);
    stacks_put_back(&w->stacks);
    free(w->fibers);
    free(w->runq);
    free(w->shared);
    free(w->hdr.scratch);       /* barrier-phase block state (generated code grows it) */
    free(w);
}

static void worker_key_destroy(void *p)
{
    worker_free(p);
}

static exec_worker_t *worker_new(unsigned smid)
{
    exec_worker_t *w = calloc(1, sizeof *w);
    if (w)
        w->smid = smid;
    return w;
}

static void run_grid_blocks(exec_worker_t *w, exec_grid_t *g);

static void grid_unref(exec_grid_t *g)
{
    atomic_fetch_sub_explicit(&g->refs, 1, memory_order_release);
}

/* Takes a reference on the first published grid that still has unclaimed blocks. */
static exec_grid_t *pool_take(void)
{
    exec_grid_t *g = NULL;
    pthread_mutex_lock(&pool.lock);
    for (exec_grid_t *it = pool.active; it; it = it->link_next) {
        if (atomic_load_explicit(&it->next, memory_order_relaxed) < it->nblocks) {
            atomic_fetch_add(&it->refs, 1);
            g = it;
            break;
        }
    }
    pthread_mutex_unlock(&pool.lock);
    return g;
}

static void *pool_main(void *arg)
{
    exec_worker_t *w = worker_new((unsigned)(uintptr_t)arg);
    if (!w)
        return NULL;
    tls_worker = w;
    pthread_setspecific(pool.key, w);
    sigset_t sync_sigs;                     /* synchronous faults must reach fault_handler */
    sigemptyset(&sync_sigs);
    sigaddset(&sync_sigs, SIGSEGV);
    sigaddset(&sync_sigs, SIGBUS);
    sigaddset(&sync_sigs, SIGILL);
    sigaddset(&sync_sigs, SIGFPE);
    pthread_sigmask(SIG_UNBLOCK, &sync_sigs, NULL);
    runner_register(w, (pid_t)syscall(SYS_gettid));
    runner_altstack(w);
    runner_stack_range(w);
    for (;;) {
        uint32_t seen = atomic_load(&pool.gen);
        exec_grid_t *g = pool_take();
        if (g) {
            run_grid_blocks(w, g);
            grid_unref(g);
            continue;
        }
        uint64_t t0 = mono_ns(), limit = (uint64_t)pool.spin_us * 1000;
        int spins = 0;
        while (atomic_load_explicit(&pool.gen, memory_order_acquire) == seen) {
            cpu_relax();
            if (++spins == 64) {
                spins = 0;
                if (mono_ns() - t0 >= limit)
                    break;
                sched_yield();          /* let a host thread on this core run meanwhile */
            }
        }
        if (atomic_load(&pool.gen) == seen) {
            atomic_fetch_add(&pool.sleepers, 1);
            futex_wait(&pool.gen, seen);
            atomic_fetch_sub(&pool.sleepers, 1);
        }
    }
    return NULL;
}

static void pool_init(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long long n = npu_env_ll("TRANSFER_TO_NPU_THREADS", cpus > 0 ? cpus : 1);
    if (n < 1)
        n = 1;
    if (n > 1024)
        n = 1024;
    pool.nrunners = (int)n;
    pool.spin_us = (int)npu_env_ll("TRANSFER_TO_NPU_SPIN_US", 100);
    long long ss = npu_env_ll("TRANSFER_TO_NPU_FIBER_STACK", 64 * 1024);
    if (ss < 16 * 1024)
        ss = 16 * 1024;
    if (ss > (64ll << 20))
        ss = 64ll << 20;
    pool.stack_size = (size_t)ss;
    pool.memcheck = npu_mem_memcheck_enabled();
    pthread_key_create(&pool.key, worker_key_destroy);
}

static pthread_once_t pool_threads_once = PTHREAD_ONCE_INIT;

static void pool_start_threads(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);     /* host signals go to host threads */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20);
    int started = 0;
    for (int i = 1; i < pool.nrunners; i++) {
        pthread_t th;
        if (pthread_create(&th, &attr, pool_main, (void *)(uintptr_t)i) == 0) {
            pthread_detach(th);
            started++;
        }
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (started + 1 < pool.nrunners) {
        NPU_WARN("exec: started %d of %d block workers", started, pool.nrunners - 1);
        pool.nrunners = started + 1;
    }
    NPU_DEBUG("exec: %d block runners (%d pool workers + the launching thread)", pool.nrunners,
              started);
}

static exec_worker_t *caller_worker(void)
{
    exec_worker_t *w = tls_worker;
    if (!w) {
        w = worker_new(0);
        if (!w)
            return NULL;
        tls_worker = w;
        pthread_setspecific(pool.key, w);
        runner_register(w, (pid_t)syscall(SYS_gettid));
        runner_altstack(w);
        runner_stack_range(w);
    }
    return w;
}

/* ------------------------------------------------------------ run queue etc ---- */
static inline void rq_push(exec_worker_t *w, exec_fiber_t *f)
{
    f->state = FB_RUNNABLE;
    f->wait = WAIT_NONE;
    w->warps[f->t.warp].blocked &= ~(1u << f->t.lane);
    w->runq[w->rq_tail++ % EXEC_MAX_THREADS] = (uint32_t)(f - w->fibers);
}

/* Leaves the running fiber f: resumes the next runnable fiber directly (one switch instead
 * of two through the scheduler), or the scheduler when none is runnable or the block was
 * abandoned. Returns when f is resumed (never, for an exited fiber). */
static inline void fiber_leave(exec_worker_t *w, exec_fiber_t *f)
{
    if (w->rq_head != w->rq_tail && w->abort == NPU_OK) {
        exec_fiber_t *next = &w->fibers[w->runq[w->rq_head++ % EXEC_MAX_THREADS]];
        if (w->rq_head != w->rq_tail) {     /* warm the one after: its frame and record */
            exec_fiber_t *after = &w->fibers[w->runq[w->rq_head % EXEC_MAX_THREADS]];
            __builtin_prefetch(after);
#ifndef NPU_FIBER_UCONTEXT
            __builtin_prefetch(after->ctx.sp);
            __builtin_prefetch((char *)after->ctx.sp + 64);
#endif
        }
        next->state = FB_RUNNING;
        w->cur = next;
        if (next != f)
            npu_fiber_switch(&f->ctx, &next->ctx);
        return;
    }
    w->cur = NULL;
    npu_fiber_switch(&f->ctx, &w->sched);
}

static void am_try(exec_worker_t *w, unsigned warp);
static int ls_try(exec_worker_t *w, unsigned warp, int force);

static inline void fiber_block(exec_worker_t *w, exec_fiber_t *f, int wait)
{
    f->state = FB_BLOCKED;
    f->wait = (uint8_t)wait;
    exec_warp_t *ws = &w->warps[f->t.warp];
    ws->blocked |= 1u << f->t.lane;
    if (ws->am_pending)
        am_try(w, f->t.warp);
    if (ws->ls_pending | ws->rc_pending)
        ls_try(w, f->t.warp, 0);
    if (f->state == FB_RUNNING)   /* released by the above (lockstep): go on */
        return;
    fiber_leave(w, f);
}

static const char *kname(const exec_worker_t *w)
{
    return (w->grid && w->grid->info && w->grid->info->name) ? w->grid->info->name : "?";
}

/* Abandons the current block with status st. Never returns. */
__attribute__((noreturn)) static void exec_abort(exec_worker_t *w, npu_status_t st)
{
    if (w->abort == NPU_OK)
        w->abort = st;
    if (w->thread_mode && w->cur) {
        exec_fiber_t *f = w->cur;
        f->state = FB_EXITED;
        w->cur = NULL;
        npu_fiber_switch(&f->ctx, &w->sched);
        __builtin_unreachable();
    }
    siglongjmp(w->jb, 1);
}

/* Worker of a krt call: the fiber's when in thread mode, else this thread's current one. */
static inline exec_worker_t *rt_worker(npu_tctx_t *t)
{
    if (t && t->exec)
        return ((exec_fiber_t *)t->exec)->w;
    return tls_worker;
}

/* ---------------------------------------------------------- warp collectives ---- */
/* Shuffles from lanes that do not take part. shfl.sync computes a source lane j; when j is out
 * of range the PTX ISA defines the result (the lane's own value, predicate false). When j is in
 * range but lane j is not executing this shfl (it skipped the branch, exited, or never existed
 * in a partial warp), the ISA calls the value "unpredictable" (shfl.sync semantics: SourceA[j]
 * of an inactive thread) and the CUDA guide "undefined". Code written and tested on GPUs relies
 * on what the hardware gives there: 0. Evidence: NVIDIA's cuda-samples `reduction` (reduce7,
 * shipped as passing) ends with `if (tid < k) { for (off = 16; off; off /= 2) v +=
 * __shfl_down_sync(ballot(tid < k), v, off); }` with k < 32, which is right only if the reads
 * of lanes >= k add nothing; PaddlePaddle CINN PR #938 ("undefined ... measured as 0", reads
 * past the live threads of a partial warp) and apache/tvm issue #12274 ("the value is always
 * 0 during my test", sub-warp reductions over inactive lanes) report the same on real GPUs.
 * So an in-range source lane outside the lanes that reached the shfl reads as 0, in thread
 * mode (coll_compute), in barrier-phase mode (the resolver in ptx_emit.c) and for the lone
 * lane of a block-mode call. The ISA-defined cases (out of range: own value, p = false) stay
 * exact. tests/cuda/k_shfl_inactive.cu checks both. */
static void coll_compute(exec_fiber_t *base, uint32_t G)
{
    uint32_t ballot = 0, sum = 0, band = ~0u, bor = 0, bxor = 0, umin = ~0u, umax = 0;
    int32_t smin = INT32_MAX, smax = INT32_MIN;
    for (uint32_t m = G; m; m &= m - 1) {
        exec_fiber_t *f = &base[__builtin_ctz(m)];
        uint32_t v = (uint32_t)f->val;
        if (v)
            ballot |= 1u << __builtin_ctz(m);
        sum += v; band &= v; bor |= v; bxor ^= v;
        if (v < umin) umin = v;
        if (v > umax) umax = v;
        if ((int32_t)v < smin) smin = (int32_t)v;
        if ((int32_t)v > smax) smax = (int32_t)v;
    }
    for (uint32_t m = G; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        exec_fiber_t *f = &base[lane];
        f->pred = 1;
        switch (f->coll) {
        case COLL_SHFL: {
            int bval = (int)(f->b & 31), cval = (int)(f->c & 31), seg = (int)((f->c >> 8) & 31);
            int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg, j, pv;
            switch (f->mode) {
            case NPU_SHFL_UP:   j = lane - bval; pv = j >= maxl; break;
            case NPU_SHFL_DOWN: j = lane + bval; pv = j <= maxl; break;
            case NPU_SHFL_BFLY: j = lane ^ bval; pv = j <= maxl; break;
            default:            j = minl | (bval & ~seg); pv = j <= maxl; break;
            }
            if (!pv || j < 0 || j > 31)
                j = lane;
            /* an in-range source lane that is not taking part reads as 0 (see "Shuffles from
             * lanes that do not take part" above); out of range: the lane's own value (ISA) */
            f->result = (G >> j & 1) ? (uint32_t)base[j].val : 0u;
            f->pred = (uint32_t)pv;
            break;
        }
        case COLL_VOTE:
            switch (f->mode) {
            case NPU_VOTE_ALL: f->result = (ballot & G) == G; break;
            case NPU_VOTE_ANY: f->result = ballot != 0; break;
            case NPU_VOTE_UNI: f->result = ballot == 0 || (ballot & G) == G; break;
            default:           f->result = ballot; break;
            }
            break;
        case COLL_MATCH_ANY: {
            uint32_t r = 0;
            for (uint32_t k = G; k; k &= k - 1)
                if (base[__builtin_ctz(k)].val == f->val)
                    r |= 1u << __builtin_ctz(k);
            f->result = r;
            break;
        }
        case COLL_MATCH_ALL: {
            int same = 1;
            for (uint32_t k = G; k; k &= k - 1)
                if (base[__builtin_ctz(k)].val != f->val)
                    same = 0;
            f->result = same ? G : 0;
            f->pred = (uint32_t)same;
            break;
        }
        case COLL_REDUX:
            switch (f->mode) {
            case NPU_REDUX_ADD:  f->result = sum; break;
            case NPU_REDUX_MIN:  f->result = (uint32_t)smin; break;
            case NPU_REDUX_MAX:  f->result = (uint32_t)smax; break;
            case NPU_REDUX_UMIN: f->result = umin; break;
            case NPU_REDUX_UMAX: f->result = umax; break;
            case NPU_REDUX_AND:  f->result = band; break;
            case NPU_REDUX_OR:   f->result = bor; break;
            default:             f->result = bxor; break;
            }
            break;
        default:
            f->result = 0;
            break;
        }
    }
}

/* wmma.mma.sync: the fragments of lanes G (each lane's val points at its 24 words) go to the
 * kernel's MMA once; each lane's 8 result words to its wout. Absent lanes read as zeros. */
static void wmma_compute(exec_fiber_t *base, uint32_t G)
{
    uint32_t w[32 * 24], r[32 * 8];
    void (*fn)(const uint32_t *, uint32_t *, int) = NULL;
    int mode = 0;
    memset(w, 0, sizeof w);
    memset(r, 0, sizeof r);
    for (uint32_t m = G; m; m &= m - 1) {
        const exec_fiber_t *f = &base[__builtin_ctz(m)];
        memcpy(w + 24 * __builtin_ctz(m), (const void *)(uintptr_t)f->val, 24 * sizeof(uint32_t));
        fn = f->wfn;
        mode = f->mode;
    }
    if (fn)
        fn(w, r, mode);
    for (uint32_t m = G; m; m &= m - 1) {
        exec_fiber_t *f = &base[__builtin_ctz(m)];
        memcpy(f->wout, r + 8 * __builtin_ctz(m), 8 * sizeof(uint32_t));
        f->result = 0;
        f->pred = 1;
    }
}

/* Completes the collective of the lanes named by the arrived lane `lane` if all of its
 * (non-exited) members arrived. Returns 1 when it completed. */
static int warp_try(exec_worker_t *w, unsigned warp, unsigned lane)
{
    exec_warp_t *ws = &w->warps[warp];
    exec_fiber_t *base = &w->fibers[warp * 32];
    uint32_t mask = base[lane].mask;
    uint32_t need = mask & ~ws->exited;
    if ((ws->arrived & need) != need)
        return 0;
    uint32_t G = ws->arrived & mask;
    ws->arrived &= ~G;
    if (base[lane].coll == COLL_WMMA)
        wmma_compute(base, G);
    else
        coll_compute(base, G);
    for (uint32_t m = G; m; m &= m - 1) {
        exec_fiber_t *f = &base[__builtin_ctz(m)];
        if (f != w->cur)
            rq_push(w, f);
    }
    return 1;
}

/* Re-checks the pending collectives of a warp after one of its lanes exited. */
static void warp_recheck(exec_worker_t *w, unsigned warp)
{
    exec_warp_t *ws = &w->warps[warp];
    int progress = 1;
    while (progress) {
        progress = 0;
        for (uint32_t m = ws->arrived; m; m &= m - 1) {
            if (warp_try(w, warp, (unsigned)__builtin_ctz(m))) {
                progress = 1;
                break;
            }
        }
    }
}

/* block mode (no fibers): a warp of one lane. Out of line: its 32 fiber records would make
 * every warp_op's frame 6 KB (sub $0x1900,%rsp: a fresh stack line per collective per lane) */
static __attribute__((noinline)) uint32_t warp_op_lone(npu_tctx_t *t, int coll, int mode, uint64_t val, uint32_t b,
                                                       uint32_t c, uint32_t *pred)
{
    unsigned lane = t ? t->lane & 31 : 0;
    exec_fiber_t lanes[32];
    memset(&lanes[lane], 0, sizeof lanes[lane]);
    lanes[lane].coll = (uint8_t)coll;
    lanes[lane].mode = (uint8_t)mode;
    lanes[lane].val = val;
    lanes[lane].b = b;
    lanes[lane].c = c;
    coll_compute(lanes, 1u << lane);
    if (pred)
        *pred = lanes[lane].pred;
    return lanes[lane].result;
}

static uint32_t warp_op(npu_tctx_t *t, int coll, int mode, uint64_t val, uint32_t b, uint32_t c,
                        uint32_t mask, uint32_t *pred)
{
    exec_fiber_t *f = t ? t->exec : NULL;
    if (!f)
        return warp_op_lone(t, coll, mode, val, b, c, pred);
    exec_worker_t *w = f->w;
    f->coll = (uint8_t)coll;
    f->mode = (uint8_t)mode;
    f->val = val;
    f->b = b;
    f->c = c;
    f->mask = mask | (1u << t->lane);
    w->warps[t->warp].arrived |= 1u << t->lane;
    if (!warp_try(w, t->warp, t->lane))
        fiber_block(w, f, WAIT_WARP);
    if (pred)
        *pred = f->pred;
    return f->result;
}

static void rt_warp_sync(npu_tctx_t *t, uint32_t mask)
{
    warp_op(t, COLL_SYNC, 0, 0, 0, 0, mask, NULL);
}

static uint32_t rt_shfl(npu_tctx_t *t, int mode, uint32_t val, uint32_t b, uint32_t c,
                        uint32_t mask, uint32_t *pred)
{
    return warp_op(t, COLL_SHFL, mode, val, b, c, mask, pred);
}

static uint32_t rt_vote(npu_tctx_t *t, int mode, uint32_t pred, uint32_t mask)
{
    return warp_op(t, COLL_VOTE, mode, pred != 0, 0, 0, mask, NULL);
}

static uint32_t rt_match_any(npu_tctx_t *t, uint64_t v, uint32_t mask)
{
    return warp_op(t, COLL_MATCH_ANY, 0, v, 0, 0, mask, NULL);
}

static uint32_t rt_match_all(npu_tctx_t *t, uint64_t v, uint32_t mask, uint32_t *pred)
{
    return warp_op(t, COLL_MATCH_ALL, 0, v, 0, 0, mask, pred);
}

static uint32_t rt_redux(npu_tctx_t *t, int op, uint32_t v, uint32_t mask)
{
    return warp_op(t, COLL_REDUX, op, v, 0, 0, mask, NULL);
}

/* wmma.mma.sync is .aligned: every live lane of the warp takes part */
static void rt_wmma_mma(npu_tctx_t *t, const uint32_t *in, uint32_t *out, int mode,
                        void (*mma)(const uint32_t *, uint32_t *, int))
{
    exec_fiber_t *f = t ? t->exec : NULL;
    if (!f) {                               /* block mode: a warp of one lane */
        uint32_t w[32 * 24], r[32 * 8];
        unsigned lane = t ? t->lane & 31 : 0;
        memset(w, 0, sizeof w);
        memset(r, 0, sizeof r);
        memcpy(w + 24 * lane, in, 24 * sizeof(uint32_t));
        mma(w, r, mode);
        memcpy(out, r + 8 * lane, 8 * sizeof(uint32_t));
        return;
    }
    f->wout = out;
    f->wfn = mma;
    warp_op(t, COLL_WMMA, mode, (uint64_t)(uintptr_t)in, 0, 0, 0xffffffffu, NULL);
}

/* activemask: the lanes that are "converged" with the caller. Fibers have no notion of
 * convergence, so it is approximated by program point: a lane calling activemask waits until
 * every other live lane of its warp is suspended somewhere (or exited); then the lanes waiting
 * in activemask at the same instruction (the id the translator passes) form one
 * group and each gets that group's mask. Outside divergent code this is every live lane;
 * in `if (cond) { m = __activemask(); ... }` it is the lanes that took the branch, which is
 * what coalesced_threads() and warp-aggregated atomics need. */
static void am_try(exec_worker_t *w, unsigned warp)
{
    exec_warp_t *ws = &w->warps[warp];
    /* a lane waiting in ls_step (warp lockstep) has not settled yet: it goes on once the others
     * are suspended and may reach this activemask too */
    if (!ws->am_pending || ((ws->blocked & ~ws->ls_pending) | ws->exited) != 0xffffffffu)
        return;
    exec_fiber_t *base = &w->fibers[warp * 32];
    while (ws->am_pending) {
        uint32_t site = base[__builtin_ctz(ws->am_pending)].site;
        uint32_t g = 0;
        for (uint32_t m = ws->am_pending; m; m &= m - 1)
            if (base[__builtin_ctz(m)].site == site)
                g |= 1u << __builtin_ctz(m);
        ws->am_pending &= ~g;
        for (uint32_t m = g; m; m &= m - 1) {
            exec_fiber_t *f = &base[__builtin_ctz(m)];
            f->result = g;
            if (f == w->cur)
                ws->blocked &= ~(1u << f->t.lane);
            else
                rq_push(w, f);
        }
    }
}

static uint32_t rt_activemask(npu_tctx_t *t, uint32_t site)
{
    exec_fiber_t *f = t ? t->exec : NULL;
    if (!f)
        return t ? 1u << (t->lane & 31) : 1u;
    exec_worker_t *w = f->w;
    exec_warp_t *ws = &w->warps[t->warp];
    uint32_t bit = 1u << t->lane;
    f->site = site;
    ws->am_pending |= bit;
    ws->blocked |= bit;
    am_try(w, t->warp);
    if (ws->am_pending & bit)
        fiber_block(w, f, WAIT_WARP);
    return f->result;
}

/* Warp lockstep (ptx_lockstep.c, thread mode). A lane in ls_step waits until every live lane
 * of its warp is suspended somewhere (the fiber analogue of a phase-mode pass: all lanes have
 * done what precedes the point), then every lane waiting in ls_step goes on. A lane in
 * ls_reconv (its point already popped) waits while another live lane of the warp still has
 * the point on its stack. force: release every waiting lane (nothing else can move). Returns
 * the number of lanes released. */
static int ls_try(exec_worker_t *w, unsigned warp, int force)
{
    exec_warp_t *ws = &w->warps[warp];
    if (!(ws->ls_pending | ws->rc_pending) || (!force && (ws->blocked | ws->exited) != 0xffffffffu))
        return 0;
    exec_fiber_t *base = &w->fibers[warp * 32];
    uint32_t rel = ws->ls_pending;
    for (uint32_t m = ws->rc_pending; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        int wait = 0;
        for (uint32_t o = ~ws->exited & ~(1u << l); o && !wait && !force; o &= o - 1) {
            const exec_fiber_t *g = &base[__builtin_ctz(o)];
            for (unsigned d = 0; d < g->rsd; d++)
                if (g->rs[d] == base[l].rcid) { wait = 1; break; }
        }
        if (!wait)
            rel |= 1u << l;
    }
    ws->ls_pending &= ~rel;
    ws->rc_pending &= ~rel;
    if (!rel)
        return 0;
    for (uint32_t m = rel; m; m &= m - 1) {
        exec_fiber_t *f = &base[__builtin_ctz(m)];
        ws->blocked &= ~(1u << f->t.lane);
        if (f == w->cur)
            f->state = FB_RUNNING;
        else if (f->state == FB_BLOCKED)
            rq_push(w, f);
    }
    return __builtin_popcount(rel);
}

static void rt_ls_step(npu_tctx_t *t)
{
    exec_fiber_t *f = t ? t->exec : NULL;
    if (!f)
        return;
    exec_worker_t *w = f->w;
    w->warps[t->warp].ls_pending |= 1u << t->lane;
    fiber_block(w, f, WAIT_WARP);
}

static void rt_ls_push(npu_tctx_t *t, uint32_t id)
{
    exec_fiber_t *f = t ? t->exec : NULL;
    if (f && (!f->rsd || f->rs[f->rsd - 1] != id) && f->rsd < 16)
        f->rs[f->rsd++] = id;
}

static void rt_ls_reconv(npu_tctx_t *t, uint32_t id)
{
    exec_fiber_t *f = t ? t->exec : NULL;
    if (!f)
        return;
    /* leaving the region: drop the point and whatever was pushed after it (regions left
     * through a side exit of unstructured code would otherwise stay on the stack) */
    for (unsigned d = f->rsd; d-- > 0;)
        if (f->rs[d] == id) { f->rsd = (uint8_t)d; break; }
    f->rcid = id;
    exec_worker_t *w = f->w;
    w->warps[t->warp].rc_pending |= 1u << t->lane;
    fiber_block(w, f, WAIT_WARP);
}

/* ----------------------------------------------------------------- barriers ---- */
static int bar_ready(const exec_worker_t *w, const exec_bar_t *bar)
{
    uint32_t expected = bar->count ? bar->count : w->nthreads - w->nexited;
    return bar->arrived >= expected;
}

static void bar_release(exec_worker_t *w, exec_bar_t *bar)
{
    for (exec_fiber_t *f = bar->head, *nx; f; f = nx) {
        nx = f->bar_next;
        f->bar_next = NULL;
        switch (f->bar_op) {
        case NPU_BARRED_POPC: f->result = bar->popc; break;
        case NPU_BARRED_AND:  f->result = (uint32_t)bar->all; break;
        case NPU_BARRED_OR:   f->result = (uint32_t)bar->any; break;
        default:              f->result = 0; break;
        }
        if (f != w->cur)
            rq_push(w, f);
    }
    bar->head = bar->tail = NULL;
    bar->arrived = 0;
    bar->count = 0;
    w->bars_used &= ~(1u << (bar - w->bars));
}

static uint32_t bar_common(npu_tctx_t *t, uint32_t id, uint32_t count, int wait, int op,
                           uint32_t pred)
{
    exec_fiber_t *f = t ? t->exec : NULL;
    if (!f) {                               /* block mode: a block of one thread */
        if (op == NPU_BARRED_POPC)
            return pred != 0;
        return pred != 0;
    }
    exec_worker_t *w = f->w;
    exec_bar_t *bar = &w->bars[id & 15];
    if (bar->arrived == 0) {
        w->bars_used |= 1u << (id & 15);
        bar->count = count;
        bar->popc = 0;
        bar->all = 1;
        bar->any = 0;
    }
    bar->arrived++;
    if (wait) {
        bar->popc += pred != 0;
        bar->all &= pred != 0;
        bar->any |= pred != 0;
        f->bar_op = op;
        f->bar_next = NULL;
        if (bar->tail)
            bar->tail->bar_next = f;
        else
            bar->head = f;
        bar->tail = f;
    }
    if (bar_ready(w, bar))
        bar_release(w, bar);
    else if (wait)
        fiber_block(w, f, WAIT_BAR);
    return wait ? f->result : 0;
}

static void rt_bar_sync(npu_tctx_t *t, uint32_t id, uint32_t count)
{
    bar_common(t, id, count, 1, -1, 0);
}

static void rt_bar_arrive(npu_tctx_t *t, uint32_t id, uint32_t count)
{
    bar_common(t, id, count, 0, -1, 0);
}

static uint32_t rt_bar_red(npu_tctx_t *t, uint32_t id, uint32_t count, int op, uint32_t pred)
{
    return bar_common(t, id, count, 1, op, pred);
}

/* ------------------------------------------------------------------- faults ---- */
static void log_where(exec_worker_t *w, npu_tctx_t *t, const char *what)
{
    if (t)
        NPU_ERR("kernel %s: %s in block (%u,%u,%u), thread (%u,%u,%u)", kname(w), what,
                w->b.ctaid[0], w->b.ctaid[1], w->b.ctaid[2], t->tid[0], t->tid[1], t->tid[2]);
    else
        NPU_ERR("kernel %s: %s in block (%u,%u,%u)", kname(w), what, w->b.ctaid[0],
                w->b.ctaid[1], w->b.ctaid[2]);
}

static void rt_trap(npu_tctx_t *t)
{
    exec_worker_t *w = rt_worker(t);
    if (!w || !w->busy)
        return;                                 /* not inside a block: nothing to abandon */
    log_where(w, t, "trap");
    exec_abort(w, NPU_ELAUNCHFAIL);
}

static void rt_fault(npu_tctx_t *t, int code, uint64_t addr, const char *what)
{
    exec_worker_t *w = rt_worker(t);
    if (!w || !w->busy)
        return;
    char msg[256];
    npu_status_t st = NPU_ELAUNCHFAIL;
    if (code == NPU_FAULT_ILLEGAL_ADDRESS) {
        snprintf(msg, sizeof msg, "illegal address 0x%llx (%s)", (unsigned long long)addr,
                 what ? what : "access");
        st = NPU_EILLEGALADDR;
    } else if (code == NPU_FAULT_UNSUPPORTED) {
        snprintf(msg, sizeof msg, "unsupported operation (%s)", what ? what : "?");
    } else {
        snprintf(msg, sizeof msg, "fault %d (%s) at 0x%llx", code, what ? what : "?",
                 (unsigned long long)addr);
    }
    log_where(w, t, msg);
    exec_abort(w, st);
}

static void rt_assertfail(npu_tctx_t *t, const char *msg, const char *file, uint32_t line,
                          const char *func)
{
    exec_worker_t *w = rt_worker(t);
    /* CUDA's own wording, on stderr */
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
            file ? file : "?", line, func ? func : "?", w ? w->b.ctaid[0] : 0,
            w ? w->b.ctaid[1] : 0, w ? w->b.ctaid[2] : 0, t ? t->tid[0] : 0, t ? t->tid[1] : 0,
            t ? t->tid[2] : 0, msg ? msg : "?");
    fflush(stderr);
    if (!w || !w->busy)
        return;
    log_where(w, t, "device-side assert");
    exec_abort(w, NPU_EASSERT);
}

/* ---------------------------------------------------------------- memcheck ---- */
/* TRANSFER_TO_NPU_MEMCHECK=1 (translator mode, so part of the JIT cache key: the generated C
 * differs). Every global/generic/shared ld/st/atom/red calls rt_memcheck first. Valid:
 *  .shared: [addr, addr+size) inside the block's shared_size bytes;
 *  generic/global: inside one live device, managed, pinned or registered allocation
 *  (npu_mem_memcheck_classify), or, for generic accesses only, the runner's own stack or
 *  fiber stacks (.local data reached through cvta.local), the phase-mode block state, the
 *  kernel's parameter buffer, the block's shared window, or a device-side malloc block.
 *  Anything else, including plain host memory the program never registered, is an invalid
 *  access, as compute-sanitizer reports it. Fast path: the last 4 allocations this runner
 *  found valid (dropped at any free: npu_mem_free_generation). Measured (bench_memcheck,
 *  one run, loaded 2-vCPU guest): with a 1-entry cache vectorAdd (3 arrays) missed on every
 *  access and took the device lock: 28 ns per access, 92x; 4 entries, read inline by the
 *  generated code (ptx_emit.c): 5.6-7.1x for vectorAdd.
 * An invalid access is reported in compute-sanitizer's words (stderr, "=========" lines, plus
 * one log line), not performed, and fails the grid with NPU_EILLEGALADDR. A freed block stays
 * in the memory module's quarantine for a while, so use-after-free is named as such.
 * Slowdown: bench/bench_memcheck.cu (numbers in its header). */
static struct {
    pthread_mutex_t lock;
    struct { uintptr_t p; size_t n; } *v;
    size_t n, cap;
} mc_heap = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void mc_heap_add(void *p, size_t n)
{
    pthread_mutex_lock(&mc_heap.lock);
    if (mc_heap.n == mc_heap.cap) {
        size_t nc = mc_heap.cap ? 2 * mc_heap.cap : 64;
        void *nv = realloc(mc_heap.v, nc * sizeof *mc_heap.v);
        if (nv) {
            mc_heap.v = nv;
            mc_heap.cap = nc;
        }
    }
    if (mc_heap.n < mc_heap.cap) {
        mc_heap.v[mc_heap.n].p = (uintptr_t)p;
        mc_heap.v[mc_heap.n].n = n;
        mc_heap.n++;
    }
    pthread_mutex_unlock(&mc_heap.lock);
}

static void mc_heap_del(void *p)
{
    pthread_mutex_lock(&mc_heap.lock);
    for (size_t i = 0; i < mc_heap.n; i++)
        if (mc_heap.v[i].p == (uintptr_t)p) {
            mc_heap.v[i] = mc_heap.v[--mc_heap.n];
            break;
        }
    pthread_mutex_unlock(&mc_heap.lock);
}

static int mc_heap_has(uintptr_t a, size_t n)
{
    int ok = 0;
    pthread_mutex_lock(&mc_heap.lock);
    for (size_t i = 0; i < mc_heap.n && !ok; i++)
        ok = a >= mc_heap.v[i].p && a - mc_heap.v[i].p <= mc_heap.v[i].n &&
             n <= mc_heap.v[i].n - (a - mc_heap.v[i].p);
    pthread_mutex_unlock(&mc_heap.lock);
    return ok;
}

static inline int in_range(uintptr_t a, size_t n, uintptr_t lo, uintptr_t hi)
{
    return a >= lo && a < hi && n <= hi - a;
}

static void rt_memcheck(npu_tctx_t *t, uint64_t addr, uint32_t size, uint32_t kind, uint32_t line)
{
    exec_worker_t *w = rt_worker(t);
    if (!w || !w->busy || !t)
        return;
    uintptr_t a = (uintptr_t)addr;
    if (kind == UINT32_MAX) {                   /* phase-mode block state: [addr, addr+size) */
        w->state_lo = a;
        w->state_hi = a + size;
        return;
    }
    unsigned space = kind & 0xf0u, acc = kind & 0x0fu;
    uint64_t gen = npu_mem_free_generation();
    if (w->hdr.mc_gen != gen) {
        memset(w->hdr.mc_len, 0, sizeof w->hdr.mc_len);
        w->hdr.mc_gen = gen;
    }
    if (space != NPU_MC_SHARED)
        for (int i = 0; i < 4; i++)
            if (a - w->hdr.mc_lo[i] < w->hdr.mc_len[i] && size <= w->hdr.mc_len[i] - (a - w->hdr.mc_lo[i]))
                return;
    npu_bctx_t *b = t->b;
    uintptr_t sh = (uintptr_t)b->shared;
    int in_sh_window = a >= sh && a < sh + (w->shared_cap > b->shared_size ? w->shared_cap : b->shared_size);
    void *base = NULL;
    size_t asz = 0;
    int r;
    if (space == NPU_MC_SHARED || (space == NPU_MC_GENERIC && in_sh_window)) {
        if (in_range(a, size, sh, sh + b->shared_size))
            return;
        r = NPU_MC_OOB;
        space = NPU_MC_SHARED;
    } else {
        if (space == NPU_MC_GENERIC) {
            const exec_grid_t *g = w->grid;
            if (in_range(a, size, w->stk_lo, w->stk_hi) ||
                (w->stacks.map && in_range(a, size, (uintptr_t)w->stacks.map,
                                           (uintptr_t)w->stacks.map + w->stacks.map_size)) ||
                in_range(a, size, w->state_lo, w->state_hi) ||
                (g && in_range(a, size, (uintptr_t)g->params,
                               (uintptr_t)g->params + g->info->param_size)) ||
                mc_heap_has(a, size))
                return;
        }
        r = npu_mem_memcheck_classify((const void *)a, size, &base, &asz);
        if (r == NPU_MC_OK) {
            unsigned k = w->hdr.mc_next++ & 3;
            w->hdr.mc_lo[k] = (uintptr_t)base;
            w->hdr.mc_len[k] = asz;
            return;
        }
    }
    static const char *const accs[] = {"read", "write", "atomic"};
    char where[160];
    if (r == NPU_MC_OOB && space == NPU_MC_SHARED)
        snprintf(where, sizeof where, "is out of bounds (shared memory of the block: %u bytes, "
                 "access at offset %lld)", b->shared_size, (long long)(a - sh));
    else if (r == NPU_MC_FREED)
        snprintf(where, sizeof where, "is %llu bytes inside an allocation at 0x%llx of size %zu "
                 "bytes that was freed (use after free)", (unsigned long long)(a - (uintptr_t)base),
                 (unsigned long long)(uintptr_t)base, asz);
    else if (base && a >= (uintptr_t)base)
        snprintf(where, sizeof where, "is %llu bytes after the nearest allocation at 0x%llx of "
                 "size %zu bytes", (unsigned long long)(a - ((uintptr_t)base + asz)),
                 (unsigned long long)(uintptr_t)base, asz);
    else if (base)
        snprintf(where, sizeof where, "is %llu bytes before the nearest allocation at 0x%llx of "
                 "size %zu bytes", (unsigned long long)((uintptr_t)base - a),
                 (unsigned long long)(uintptr_t)base, asz);
    else
        snprintf(where, sizeof where, "is out of bounds (not inside any allocation)");
    flockfile(stderr);
    fprintf(stderr, "========= Invalid __%s__ %s of size %u bytes\n"
            "=========     at %s (PTX line %u)\n"
            "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n"
            "=========     Address 0x%llx %s\n",
            space == NPU_MC_SHARED ? "shared" : "global", accs[acc < 3 ? acc : 0], size, kname(w),
            line, t->tid[0], t->tid[1], t->tid[2], b->ctaid[0], b->ctaid[1], b->ctaid[2],
            (unsigned long long)a, where);
    funlockfile(stderr);
    char msg[256];
    snprintf(msg, sizeof msg, "memcheck: invalid %s %s of %u bytes at 0x%llx (PTX line %u)",
             space == NPU_MC_SHARED ? "__shared__" : "__global__", accs[acc < 3 ? acc : 0], size,
             (unsigned long long)a, line);
    log_where(w, t, msg);
    exec_abort(w, NPU_EILLEGALADDR);
}

/* ---------------------------------------------------------- library calls ---- */
/* printf, malloc and free take libc locks: a fault inside them is not isolated (it would
 * leave the lock held), so they run with the fault handler's attention off. */
static int32_t rt_vprintf(npu_tctx_t *t, const char *fmt, const void *args)
{
    exec_worker_t *w = rt_worker(t);
    int k = w ? w->in_kernel : 0;
    if (w)
        w->in_kernel = 0;
    int32_t r = npu_exec_vprintf(fmt, args);
    if (w)
        w->in_kernel = k;
    return r;
}

/* Device heap: the host allocator (thread-safe, 16-byte aligned like CUDA's). It is not
 * bounded by cudaLimitMallocHeapSize. */
static void *rt_malloc(npu_tctx_t *t, uint64_t size)
{
    exec_worker_t *w = rt_worker(t);
    int k = w ? w->in_kernel : 0;
    if (w)
        w->in_kernel = 0;
    void *p = malloc(size ? (size_t)size : 1);
    if (p && npu_mem_memcheck_enabled())
        mc_heap_add(p, size ? (size_t)size : 1);
    if (w)
        w->in_kernel = k;
    return p;
}

static void rt_free(npu_tctx_t *t, void *p)
{
    exec_worker_t *w = rt_worker(t);
    int k = w ? w->in_kernel : 0;
    if (w)
        w->in_kernel = 0;
    if (p && npu_mem_memcheck_enabled())
        mc_heap_del(p);
    free(p);
    if (w)
        w->in_kernel = k;
}

static uint64_t rt_clock64(npu_tctx_t *t)
{
#if defined(__x86_64__)
    return __rdtsc();
#else
    return mono_ns();
#endif
}

static uint64_t rt_globaltimer(npu_tctx_t *t)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const npu_krt_t exec_krt = {
    .bar_sync = rt_bar_sync,
    .bar_arrive = rt_bar_arrive,
    .bar_red = rt_bar_red,
    .warp_sync = rt_warp_sync,
    .shfl = rt_shfl,
    .vote = rt_vote,
    .match_any = rt_match_any,
    .match_all = rt_match_all,
    .redux = rt_redux,
    .activemask = rt_activemask,
    .trap = rt_trap,
    .fault = rt_fault,
    .assertfail = rt_assertfail,
    .vprintf = rt_vprintf,
    .malloc = rt_malloc,
    .free = rt_free,
    .clock64 = rt_clock64,
    .globaltimer = rt_globaltimer,
    .memcheck = rt_memcheck,
    .ls_step = rt_ls_step,
    .ls_push = rt_ls_push,
    .ls_reconv = rt_ls_reconv,
    .wmma_mma = rt_wmma_mma,
};

/* ------------------------------------------------------------- thread mode ---- */
static void fiber_exit(exec_worker_t *w, exec_fiber_t *f)
{
    f->state = FB_EXITED;
    w->nexited++;
    unsigned warp = f->t.warp;
    w->warps[warp].exited |= 1u << f->t.lane;
    w->cur = NULL;      /* the exiting fiber is not resumed by a release below */
    if (w->warps[warp].arrived)
        warp_recheck(w, warp);
    if (w->warps[warp].am_pending)
        am_try(w, warp);
    if (w->warps[warp].ls_pending | w->warps[warp].rc_pending)
        ls_try(w, warp, 0);
    for (uint32_t m = w->bars_used; m; m &= m - 1) {
        exec_bar_t *bar = &w->bars[__builtin_ctz(m)];
        if (bar->count == 0 && bar_ready(w, bar))
            bar_release(w, bar);
    }
    fiber_leave(w, f);
    __builtin_unreachable();
}

static void fiber_main(void *arg)
{
    exec_fiber_t *f = arg;
    exec_worker_t *w = f->w;
    w->thread_fn(&f->t, w->grid->params);
    fiber_exit(w, f);
}

static npu_status_t worker_prepare_threads(exec_worker_t *w, exec_grid_t *g)
{
    size_t want = pool.stack_size + g->info->local_size;
    want = (want + 4095) & ~(size_t)4095;
    unsigned count = (g->nthreads + 63u) & ~63u;
    if (!w->stacks.map || w->stacks.stack_size < want || w->stacks.count < count) {
        stacks_put_back(&w->stacks);
        if (!stacks_take(&w->stacks, count, want) &&
            npu_fiber_stacks_alloc(&w->stacks, count, want) != 0) {
            NPU_ERR("exec: cannot map %u fiber stacks of %zu bytes", count, want);
            return NPU_EHOSTMEM;
        }
    }
    if (!w->fibers) {
        w->fibers = calloc(EXEC_MAX_THREADS, sizeof *w->fibers);
        w->runq = calloc(EXEC_MAX_THREADS, sizeof *w->runq);
        if (!w->fibers || !w->runq) {
            free(w->fibers);
            free(w->runq);
            w->fibers = NULL;
            w->runq = NULL;
            return NPU_EHOSTMEM;
        }
    }
    return NPU_OK;
}

static void log_deadlock(exec_worker_t *w)
{
    unsigned at_bar = 0, at_warp = 0;
    int first = -1;
    for (unsigned i = 0; i < w->nthreads; i++) {
        if (w->fibers[i].state != FB_BLOCKED)
            continue;
        if (first < 0)
            first = (int)i;
        if (w->fibers[i].wait == WAIT_BAR)
            at_bar++;
        else
            at_warp++;
    }
    NPU_ERR("kernel %s: deadlock in block (%u,%u,%u): %u of %u threads wait at barriers, %u in "
            "warp collectives, none can proceed (first blocked thread: linear %d)", kname(w),
            w->b.ctaid[0], w->b.ctaid[1], w->b.ctaid[2], at_bar, w->nthreads, at_warp, first);
}

static void run_threads(exec_worker_t *w, exec_grid_t *g)
{
    unsigned n = g->nthreads, nx = g->block[0], ny = g->block[1];
    w->nthreads = n;
    w->nexited = 0;
    w->rq_head = w->rq_tail = 0;
    w->thread_fn = g->info->thread_fn;
    w->cur = NULL;
    size_t ss = w->stacks.stack_size;
    for (unsigned i = 0; i < n; i++) {
        exec_fiber_t *f = &w->fibers[i];
        f->w = w;
        f->t.b = &w->b;
        f->t.tid[0] = i % nx;
        f->t.tid[1] = (i / nx) % ny;
        f->t.tid[2] = i / (nx * ny);
        f->t.linear = i;
        f->t.lane = i & 31;
        f->t.warp = i >> 5;
        f->t.exec = f;
        f->bar_next = NULL;
        f->rsd = 0;
        /* stack colouring: stack tops 68 KiB apart would all map to one L1 set; shift each
         * by a different multiple of 64 bytes (9 is odd: 64 consecutive fibers, 64 sets) */
        npu_fiber_make(&f->ctx, npu_fiber_stack(&w->stacks, i), ss - (i * 9 % 64) * 64,
                       fiber_main, f);
        rq_push(w, f);
    }
    unsigned nwarps = (n + 31) / 32;
    for (unsigned k = 0; k < nwarps; k++) {
        w->warps[k].arrived = 0;
        w->warps[k].exited = 0;
        w->warps[k].blocked = 0;
        w->warps[k].am_pending = 0;
        w->warps[k].ls_pending = 0;
        w->warps[k].rc_pending = 0;
    }
    if (n & 31)
        w->warps[nwarps - 1].exited = ~((1u << (n & 31)) - 1);
    memset(w->bars, 0, sizeof w->bars);
    w->bars_used = 0;

    while (w->abort == NPU_OK) {
        if (w->rq_head == w->rq_tail) {
            /* lanes held at a reconvergence point for a lane that waits elsewhere (a barrier
             * inside a divergent region): let them go rather than deadlock */
            int moved = 0;
            for (unsigned k = 0; k < nwarps && !moved; k++)
                moved = ls_try(w, k, 1);
            if (moved)
                continue;
            if (w->nexited < n) {
                log_deadlock(w);
                w->abort = NPU_EDEADLOCK;
            }
            break;
        }
        exec_fiber_t *f = &w->fibers[w->runq[w->rq_head++ % EXEC_MAX_THREADS]];
        f->state = FB_RUNNING;
        w->cur = f;
        npu_fiber_switch(&w->sched, &f->ctx);
        w->cur = NULL;
    }
}

/* ---------------------------------------------------------------- blocks ---- */
static npu_status_t worker_prepare(exec_worker_t *w, exec_grid_t *g)
{
    if (w->prepared_id == g->id)
        return NPU_OK;
    size_t need = g->shared_size ? g->shared_size : 16;
    if (w->shared_cap < need) {
        size_t cap = (need + 4095) & ~(size_t)4095;
        uint8_t *p = aligned_alloc(4096, cap);
        if (!p)
            return NPU_EHOSTMEM;
        free(w->shared);
        w->shared = p;
        w->shared_cap = cap;
    }
    if (g->info->uses_sync) {
        npu_status_t st = worker_prepare_threads(w, g);
        if (st != NPU_OK)
            return st;
    }
    w->prepared_id = g->id;
    return NPU_OK;
}

/* Translated kernels are compiled with -march=native and use 512-bit registers; gcc's znver4
 * tuning emits no vzeroupper, so a runner thread came back with the upper halves dirty and
 * every later SSE instruction of that thread paid for it: the host program's own float code
 * ran 3x slower after the first lane-group SGEMM when the host thread had helped run it
 * (bench_kernels' plain-C SGEMM 45 -> 135 ms, for the rest of the process). */
static inline void exec_clear_upper(void)
{
#if defined(__x86_64__)
    /* (__builtin_cpu_supports reads libgcc's CPU model, filled before main: no lazy state) */
    if (__builtin_cpu_supports("avx")) __asm__ volatile("vzeroupper" ::: "memory");
#endif
}

static npu_status_t run_block(exec_worker_t *w, exec_grid_t *g, uint64_t lin)
{
    npu_bctx_t *b = &w->b;
    b->rt = &exec_krt;
    b->ctaid[0] = (uint32_t)(lin % g->grid[0]);
    b->ctaid[1] = (uint32_t)((lin / g->grid[0]) % g->grid[1]);
    b->ctaid[2] = (uint32_t)(lin / ((uint64_t)g->grid[0] * g->grid[1]));
    memcpy(b->nctaid, g->grid, sizeof b->nctaid);
    memcpy(b->ntid, g->block, sizeof b->ntid);
    b->nthreads = g->nthreads;
    b->shared = w->shared;
    b->shared_size = g->shared_size;
    b->dyn_shared_offset = g->dyn_off;
    b->smid = w->smid;
    b->nsmid = (uint32_t)pool.nrunners;
    b->exec = w;
    w->grid = g;
    w->abort = NPU_OK;
    w->busy = 1;
    w->hdr.cur_lin = UINT32_MAX;
    w->fault_sig = 0;
    if (pool.memcheck) {            /* generated code trusts the cache: drop it after frees */
        uint64_t gen = npu_mem_free_generation();
        if (w->hdr.mc_gen != gen) {
            memset(w->hdr.mc_len, 0, sizeof w->hdr.mc_len);
            w->hdr.mc_gen = gen;
        }
    }
    w->state_lo = w->state_hi = 0;
    npu_kfunc_info_t *info = g->info;
    if (info->uses_sync) {
        w->thread_mode = 1;
        w->in_kernel = fi.enabled;
        run_threads(w, g);
        exec_clear_upper();
    } else {
        w->thread_mode = 0;
        if (sigsetjmp(w->jb, 0) == 0) {
            w->in_kernel = fi.enabled;          /* w->jb is valid from here on */
            if (info->block_fn) {
                info->block_fn(b, g->params);
                exec_clear_upper();
            } else {                            /* no barriers: threads one after another */
                npu_tctx_t t;
                memset(&t, 0, sizeof t);
                t.b = b;
                for (uint32_t i = 0; i < g->nthreads; i++) {
                    t.tid[0] = i % g->block[0];
                    t.tid[1] = (i / g->block[0]) % g->block[1];
                    t.tid[2] = i / (g->block[0] * g->block[1]);
                    t.linear = i;
                    t.lane = i & 31;
                    t.warp = i >> 5;
                    w->hdr.cur_lin = i;
                    info->thread_fn(&t, g->params);
                }
            }
        }
    }
    w->in_kernel = 0;
    w->busy = 0;
    if (w->fault_sig) {
        const char *sn = w->fault_sig == SIGBUS ? "SIGBUS" : "SIGSEGV";
        int guard = w->abort == NPU_ELAUNCHFAIL;
        if (w->fault_tid_known)
            NPU_ERR("kernel %s: %s 0x%llx (%s) in block (%u,%u,%u), thread (%u,%u,%u)",
                    kname(w), guard ? "stack overflow at" : "illegal address",
                    (unsigned long long)w->fault_addr, sn, b->ctaid[0], b->ctaid[1], b->ctaid[2],
                    w->fault_tid[0], w->fault_tid[1], w->fault_tid[2]);
        else
            NPU_ERR("kernel %s: %s 0x%llx (%s) in block (%u,%u,%u), thread unknown",
                    kname(w), guard ? "stack overflow at" : "illegal address",
                    (unsigned long long)w->fault_addr, sn, b->ctaid[0], b->ctaid[1], b->ctaid[2]);
        w->fault_sig = 0;
    }
    return w->abort;
}

static void grid_add_done(exec_grid_t *g, uint64_t n)
{
    if (n == 0)
        return;
    uint64_t d = atomic_fetch_add(&g->done, n) + n;
    if (d == g->nblocks) {
        atomic_store(&g->finished, 1);
        if (atomic_load(&g->sleeping))
            futex_wake(&g->finished, INT_MAX);
    }
}

static void grid_fail(exec_grid_t *g, npu_status_t st)
{
    int ok = NPU_OK;
    atomic_compare_exchange_strong(&g->status, &ok, (int)st);
    uint64_t old = atomic_exchange(&g->next, g->nblocks);
    if (old < g->nblocks)
        grid_add_done(g, g->nblocks - old);
}

/* Claims the next chunk [*b0, *b1) in increasing order; 0 when none is left. */
static int grid_claim(exec_grid_t *g, uint64_t *b0, uint64_t *b1)
{
    uint64_t cur = atomic_load_explicit(&g->next, memory_order_relaxed);
    for (;;) {
        if (cur >= g->nblocks)
            return 0;
        uint64_t end = cur + g->chunk;
        if (end > g->nblocks)
            end = g->nblocks;
        if (atomic_compare_exchange_weak(&g->next, &cur, end)) {
            *b0 = cur;
            *b1 = end;
            return 1;
        }
    }
}

static void run_grid_blocks(exec_worker_t *w, exec_grid_t *g)
{
    uint64_t b0, b1;
    while (grid_claim(g, &b0, &b1)) {
        npu_status_t st = NPU_OK;
        if (atomic_load_explicit(&g->status, memory_order_relaxed) == NPU_OK)
            st = worker_prepare(w, g);
        for (uint64_t b = b0; b < b1 && st == NPU_OK; b++) {
            if (atomic_load_explicit(&g->status, memory_order_relaxed) != NPU_OK)
                break;
            st = run_block(w, g, b);
        }
        if (st != NPU_OK)
            grid_fail(g, st);
        grid_add_done(g, b1 - b0);
    }
}

/* ---------------------------------------------------------------- checks ---- */
static uint64_t dim_product(const uint32_t d[3])
{
    uint32_t x = d[0] ? d[0] : 1, y = d[1] ? d[1] : 1, z = d[2] ? d[2] : 1;
    return (uint64_t)x * y * z;
}

/* CUDA's launch checks. Block or grid out of range: cudaErrorInvalidConfiguration. More
 * threads than __launch_bounds__ (.maxntid): cudaErrorLaunchOutOfResources ("too many
 * resources requested for launch", what CUDA reports for a block over a kernel's per-block
 * limit); a block other than .reqntid: invalid configuration (not checked on hardware).
 * Shared memory over the per-block limit (48 KiB, or the kernel's
 * cudaFuncAttributeMaxDynamicSharedMemorySize opt-in, at most 227 KiB):
 * cudaErrorInvalidValue ("invalid argument"), as cudaLaunchKernel returns it.
 * info->max_dynamic_shared == 0 means "not set": 48 KiB - static. */
npu_status_t npu_exec_check(npu_kfunc_info_t *info, const uint32_t grid[3],
                            const uint32_t block[3], size_t dyn_shared)
{
    if (!block[0] || !block[1] || !block[2] || !grid[0] || !grid[1] || !grid[2])
        return NPU_ECONFIG;
    if (block[0] > 1024 || block[1] > 1024 || block[2] > 64)
        return NPU_ECONFIG;
    uint64_t nt = (uint64_t)block[0] * block[1] * block[2];
    if (nt > EXEC_MAX_THREADS)
        return NPU_ECONFIG;
    if (grid[0] > 0x7fffffffu || grid[1] > 65535 || grid[2] > 65535)
        return NPU_ECONFIG;
    if (info->reqntid[0] && (block[0] != info->reqntid[0] ||
                             block[1] != (info->reqntid[1] ? info->reqntid[1] : 1) ||
                             block[2] != (info->reqntid[2] ? info->reqntid[2] : 1)))
        return NPU_ECONFIG;
    if (info->maxntid[0] && nt > dim_product(info->maxntid))
        return NPU_ERESOURCES;
    uint64_t st = info->static_shared;
    uint64_t max_dyn = info->max_dynamic_shared > 0 ? (uint64_t)info->max_dynamic_shared
                       : (st < EXEC_SHARED_DEFAULT ? EXEC_SHARED_DEFAULT - st : 0);
    if (st > EXEC_SHARED_OPTIN || dyn_shared > max_dyn || st + dyn_shared > EXEC_SHARED_OPTIN)
        return NPU_EINVAL;
    return NPU_OK;
}

/* --------------------------------------------------------------- exec_grid ---- */
npu_status_t npu_exec_grid(npu_kfunc_t *f, const uint32_t grid[3], const uint32_t block[3],
                           size_t dyn_shared, const uint8_t *params)
{
    if (!f || !grid || !block)
        return NPU_EINVAL;
    npu_kfunc_info_t *info = npu_kfunc_info(f);
    if (!info)
        return NPU_EFUNC;
    if (info->uses_sync ? !info->thread_fn : (!info->block_fn && !info->thread_fn))
        return NPU_EFUNC;
    npu_status_t st = npu_exec_check(info, grid, block, dyn_shared);
    if (st != NPU_OK)
        return st;
    return npu_exec_grid_checked(info, grid, block, dyn_shared, params);
}

/* A thread that would only spin (a host thread waiting on a stream whose head another thread
 * runs, or a stream worker whose head a helping host thread runs) runs blocks of a published
 * grid instead, as a pool worker does: with the Python thread, a stream worker and a pool
 * worker on two cores, the spinner took a core from the block work. Returns 1 if it ran any. */
int npu_exec_help(void)
{
    if (!__atomic_load_n(&pool.active, __ATOMIC_ACQUIRE))
        return 0;
    exec_grid_t *g = pool_take();
    if (!g)
        return 0;
    exec_worker_t *w = caller_worker();
    if (w) {
        run_grid_blocks(w, g);
        stacks_put_back(&w->stacks);    /* helpers run blocks now and then: the set goes back */
    }
    grid_unref(g);
    return w != NULL;
}

int npu_exec_runners(void)
{
    pthread_once(&pool.once, pool_init);
    return pool.nrunners;
}

npu_status_t npu_exec_grid_checked(npu_kfunc_info_t *info, const uint32_t grid[3],
                                   const uint32_t block[3], size_t dyn_shared,
                                   const uint8_t *params)
{
    pthread_once(&pool.once, pool_init);
    pthread_once(&fi.once, fault_install);

    static const uint8_t no_params[16];
    exec_grid_t g;
    memset(&g, 0, sizeof g);
    g.info = info;
    memcpy(g.grid, grid, sizeof g.grid);
    memcpy(g.block, block, sizeof g.block);
    g.nthreads = block[0] * block[1] * block[2];
    g.dyn_off = (info->static_shared + 15u) & ~15u;
    g.shared_size = g.dyn_off + (uint32_t)dyn_shared;
    g.nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
    g.params = params ? params : no_params;
    g.id = atomic_fetch_add(&pool.grid_ids, 1) + 1;
    uint64_t chunk = g.nblocks / (8ull * (uint64_t)pool.nrunners);
    g.chunk = chunk < 1 ? 1 : chunk > 64 ? 64 : chunk;

    exec_worker_t *w = caller_worker(), *tmp = NULL, *parent = NULL;
    int parent_in_kernel = 0;
    if (w && w->busy) {                 /* called from inside a kernel: a private worker */
        parent = w;
        w = tmp = worker_new(0);
        if (tmp) {                      /* faults now belong to the nested grid */
            parent_in_kernel = parent->in_kernel;
            parent->in_kernel = 0;
            runner_register(tmp, parent->tid);
            tmp->stk_lo = parent->stk_lo;
            tmp->stk_hi = parent->stk_hi;
        }
    }
    if (!w)
        return NPU_EHOSTMEM;
    exec_worker_t *saved_tls = tls_worker;
    if (tmp)
        tls_worker = tmp;

    if (g.nblocks == 1 || pool.nrunners == 1) {
        run_grid_blocks(w, &g);
    } else {
        pthread_once(&pool_threads_once, pool_start_threads);
        pthread_mutex_lock(&pool.lock);       /* append: workers serve grids oldest first */
        exec_grid_t **pp = &pool.active, *prev = NULL;
        while (*pp) {
            prev = *pp;
            pp = &(*pp)->link_next;
        }
        g.link_prev = prev;
        __atomic_store_n(pp, &g, __ATOMIC_RELEASE);   /* pool.active is also peeked without the lock (npu_exec_help) */
        pthread_mutex_unlock(&pool.lock);
        atomic_fetch_add(&pool.gen, 1);
        int sleepers = atomic_load(&pool.sleepers);
        if (sleepers > 0) {
            uint64_t want = g.nblocks - 1;
            futex_wake(&pool.gen, want < (uint64_t)sleepers ? (int)want : sleepers);
        }
        run_grid_blocks(w, &g);
        pthread_mutex_lock(&pool.lock);
        if (g.link_prev)
            g.link_prev->link_next = g.link_next;
        else
            __atomic_store_n(&pool.active, g.link_next, __ATOMIC_RELEASE);
        if (g.link_next)
            g.link_next->link_prev = g.link_prev;
        pthread_mutex_unlock(&pool.lock);
        /* wait for blocks still running on workers: spin, then sleep */
        uint64_t t0 = mono_ns();
        int spins = 0;
        while (!atomic_load_explicit(&g.finished, memory_order_acquire)) {
            cpu_relax();
            if (++spins == 64) {
                spins = 0;
                sched_yield();
                if (mono_ns() - t0 > 50000) {
                    atomic_store(&g.sleeping, 1);
                    while (!atomic_load(&g.finished))
                        futex_wait(&g.finished, 0);
                    break;
                }
            }
        }
        while (atomic_load_explicit(&g.refs, memory_order_acquire) != 0)
            cpu_relax();
    }
    if (tmp) {
        tls_worker = saved_tls;
        worker_free(tmp);
        parent->in_kernel = parent_in_kernel;
    }
    return (npu_status_t)atomic_load(&g.status);
}
