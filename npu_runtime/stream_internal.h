/*
 * stream_internal.h - private seam between stream.c and event.c (and nothing else).
 *
 * A stream is an in-order queue of work items, each with a sequence number. s->submitted is
 * the last number handed out, s->completed the last one finished; "(s, seq) is reached" means
 * completed >= seq. A work item may carry dependencies (stream, seq) that must be reached
 * before it runs. Events capture a (stream, seq) point; waiting on an event is waiting for
 * that point. Streams and captures are reference counted so that a dependency or an event
 * never points at freed memory.
 *
 * Thread-safety: every function here is callable from any thread.
 */
#ifndef NPU_STREAM_INTERNAL_H
#define NPU_STREAM_INTERNAL_H

#include "npu.h"
#include <stdint.h>

typedef struct npu_item npu_item_t;

typedef struct npu_dep {
    npu_stream_t *s;            /* holds a reference while stored in an item */
    uint64_t seq;
} npu_dep_t;

enum {
    NPU_ITEM_INTERNAL = 1,      /* runs even on a poisoned device (event markers, barriers) */
    NPU_ITEM_INLINE_OK = 2      /* cheap: may run at submit time when the stream is idle */
};

struct npu_item {
    npu_item_t *next;
    uint64_t seq;
    npu_status_t (*run)(npu_item_t *it);  /* NULL: a pure ordering point */
    void (*done)(npu_item_t *it);         /* always called once, after run or instead of it */
    unsigned flags;
    unsigned ndeps, ndone, cap;           /* deps[0..ndone) are already reached */
    npu_dep_t *deps;                      /* dep_inline or malloc'ed */
    npu_dep_t dep_inline[2];
    union { void *p; uint64_t u; int i; } a[6]; /* payload for run/done */
};

/* Allocates a zeroed item (NULL when out of memory). */
npu_item_t *npu_item_new(void);
/* Submits it (takes ownership, also on failure). extra (may be NULL): one more dependency,
 * the caller keeps its own reference. *seq_out (may be NULL) receives the item's number. */
npu_status_t npu_stream_submit_item(npu_stream_t *s, npu_item_t *it, const npu_dep_t *extra,
                                    uint64_t *seq_out);

/* Handle validation with a reference: NULL when s is not a live handle. */
npu_stream_t *npu_stream_acquire(const npu_stream_t *s);
void npu_stream_ref(npu_stream_t *s);
void npu_stream_unref(npu_stream_t *s);
int npu_stream_dev_of(const npu_stream_t *s);  /* s must be referenced */

int npu_stream_reached(npu_stream_t *s, uint64_t seq);
/* Waits until (s, seq) is reached; may run ready work items itself (helping). spin = 0: go
 * to sleep at once instead of spinning first (NPU_EVENT_BLOCKING_SYNC). */
void npu_stream_wait_point(npu_stream_t *s, uint64_t seq, int spin);
/* Later work on s waits for point (a barrier item; nothing when point is reached). */
npu_status_t npu_stream_wait_event_point(npu_stream_t *s, const npu_dep_t *point);
/* The status a synchronising call returns for device dev: the sticky error if any, else the
 * pending non-sticky async error (cleared). */
npu_status_t npu_stream_sync_status(int dev);

#endif
