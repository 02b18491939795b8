// bench_sort.cu - thrust::sort of 1M random 32-bit keys (CUB's onesweep radix sort: a histogram
// kernel, an exclusive sum and one DeviceRadixSortOnesweepKernel launch per 8-bit digit), and
// thrust::sort_by_key of the same keys with 32-bit values (cuda-samples radixSortThrust's case),
// against std::sort / std::stable_sort of pairs on the host in ONE run (issue 12's pathology:
// the sort "within 10x of std::sort"). Every result is checked against the host's. Times are
// medians after a warm-up (which includes the JIT, reported as "first sort").
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/copy.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static double median_ms(int reps, const std::function<void()> &fn)
{
    std::vector<double> t;
    for (int i = 0; i < reps; i++) {
        double t0 = now_ms();
        fn();
        t.push_back(now_ms() - t0);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1 << 20, reps = 3;
    std::mt19937 rng(12);
    std::vector<unsigned> keys(n), vals(n);
    for (int i = 0; i < n; i++) { keys[i] = (unsigned)rng(); vals[i] = (unsigned)i; }
    thrust::device_vector<unsigned> dk(n), dv(n);

    /* keys only */
    double t0 = now_ms();
    thrust::copy(keys.begin(), keys.end(), dk.begin());
    thrust::sort(dk.begin(), dk.end());
    cudaDeviceSynchronize();
    double first = now_ms() - t0;
    double ours = median_ms(reps, [&] {
        thrust::copy(keys.begin(), keys.end(), dk.begin());
        thrust::sort(dk.begin(), dk.end());
        cudaDeviceSynchronize();
    });
    std::vector<unsigned> got(n), ref;
    thrust::copy(dk.begin(), dk.end(), got.begin());
    double host = median_ms(reps, [&] { ref = keys; std::sort(ref.begin(), ref.end()); });
    int ok = got == ref;
    printf("BENCH thrust::sort %d u32 keys: ours %.1f ms (first sort %.0f ms), std::sort %.1f ms; ours/std::sort %.1fx%s\n",
           n, ours, first, host, ours / host, ok ? "" : "  WRONG RESULT");

    /* key-value pairs: radix sort is stable, so compare with a stable host sort */
    std::vector<std::pair<unsigned, unsigned>> pr(n), pref;
    for (int i = 0; i < n; i++) pr[i] = {keys[i], vals[i]};
    double ours2 = median_ms(reps, [&] {
        thrust::copy(keys.begin(), keys.end(), dk.begin());
        thrust::copy(vals.begin(), vals.end(), dv.begin());
        thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
        cudaDeviceSynchronize();
    });
    std::vector<unsigned> gk(n), gv(n);
    thrust::copy(dk.begin(), dk.end(), gk.begin());
    thrust::copy(dv.begin(), dv.end(), gv.begin());
    double host2 = median_ms(reps, [&] {
        pref = pr;
        std::stable_sort(pref.begin(), pref.end(), [](const std::pair<unsigned, unsigned> &a,
                                                      const std::pair<unsigned, unsigned> &b) { return a.first < b.first; });
    });
    int ok2 = 1;
    for (int i = 0; i < n && ok2; i++) ok2 = gk[i] == pref[i].first && gv[i] == pref[i].second;
    printf("BENCH thrust::sort_by_key %d u32 pairs: ours %.1f ms, std::stable_sort %.1f ms; ours/std::stable_sort %.1fx%s\n",
           n, ours2, host2, ours2 / host2, ok2 ? "" : "  WRONG RESULT");
    return ok && ok2 ? 0 : 1;
}
