/*
 * check.h - assertions for test programs (C and CUDA). A failed CHECK prints the expression,
 * file and line and counts a failure; CHECK_DONE() prints the tally and returns the exit code
 * (0 = every check passed). Tests keep going after a failure so one run shows them all.
 */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H
#include <stdio.h>
#include <math.h>

static int check_failures_, check_count_;
#define CHECK(cond) do { check_count_++; if (!(cond)) { check_failures_++; \
    fprintf(stderr, "CHECK failed: %s  (%s:%d)\n", #cond, __FILE__, __LINE__); } } while (0)
#define CHECK_MSG(cond, ...) do { check_count_++; if (!(cond)) { check_failures_++; \
    fprintf(stderr, "CHECK failed: %s  (%s:%d): ", #cond, __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)
#define CHECK_EQ(a, b) CHECK_MSG((a) == (b), "%lld != %lld", (long long)(a), (long long)(b))
#define CHECK_NEAR(a, b, tol) CHECK_MSG(fabs((double)(a) - (double)(b)) <= (tol), \
    "%.9g vs %.9g (tol %.3g)", (double)(a), (double)(b), (double)(tol))
#define CHECK_DONE() (printf("%s: %d checks, %d failed\n", __FILE__, check_count_, \
    check_failures_), check_failures_ ? 1 : 0)
#endif
