// Thrust as real library code on the device: thrust::sort and thrust::sort_by_key on device_vector
// (CUB radix sort underneath: multiple kernels, temporary storage, decoupled look-back scans),
// thrust::reduce, thrust::transform, thrust::inclusive_scan, thrust::count_if. Host reference: std::.
#include "k_util.h"
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/count.h>
#include <thrust/functional.h>
#include <algorithm>
#include <vector>
#include <numeric>

struct is_neg { __host__ __device__ bool operator()(int x) const { return x < 0; } };
struct sq_plus1 { __host__ __device__ long long operator()(int x) const { return (long long)x * x + 1; } };

int main(void)
{
    const int n = 200000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (int)(k_rand32() % 2000001) - 1000000;
    thrust::device_vector<int> d(h.begin(), h.end());
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL, thrust::plus<long long>());
    CHECK_EQ(sum, std::accumulate(h.begin(), h.end(), 0LL));
    CHECK_EQ((long long)thrust::count_if(d.begin(), d.end(), is_neg()), (long long)std::count_if(h.begin(), h.end(), [](int x) { return x < 0; }));
    thrust::device_vector<long long> t(n);
    thrust::transform(d.begin(), d.end(), t.begin(), sq_plus1());
    thrust::device_vector<long long> sc(n);
    thrust::inclusive_scan(t.begin(), t.end(), sc.begin());
    thrust::host_vector<long long> hsc = sc;
    long long acc = 0; int bad = 0;
    for (int i = 0; i < n; i++) { acc += (long long)h[i] * h[i] + 1; if (hsc[i] != acc && bad++ < 5) CHECK_MSG(0, "scan[%d]", i); }
    thrust::device_vector<int> keys = d, vals(n);
    thrust::sequence(vals.begin(), vals.end());
    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    thrust::sort(d.begin(), d.end());
    std::vector<int> s = h; std::sort(s.begin(), s.end());
    thrust::host_vector<int> hd = d, hk = keys, hv = vals;
    for (int i = 0; i < n; i++) {
        if (hd[i] != s[i] && bad++ < 5) CHECK_MSG(0, "sort[%d] = %d want %d", i, hd[i], s[i]);
        if (hk[i] != s[i] && bad++ < 5) CHECK_MSG(0, "sort_by_key key[%d]", i);
        if ((hv[i] < 0 || hv[i] >= n || h[hv[i]] != hk[i]) && bad++ < 5) CHECK_MSG(0, "sort_by_key value[%d]", i);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
