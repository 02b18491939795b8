#!/usr/bin/env python3
"""check_obs.py - assertions on the observability outputs of tests/obs programs.

    check_obs.py trace-work   TRACE.json   trace of `obs_prog work`
    check_obs.py report-work  STEM         report files STEM.txt, STEM.api.csv ... of `obs_prog work`
    check_obs.py trace-exitcb TRACE.json   trace of `obs_prog exitcb` (exit inside a host callback)
    check_obs.py report-exitcb STEM
    check_obs.py trace-unit   TRACE.json N_THREADS N_COPIES   trace of obs_unit (runtime only)
    check_obs.py trace-capped TRACE.json CAP
    check_obs.py report-kernels STEM N  obs_unit with N fake kernels: every one listed
    check_obs.py trace-profiler TRACE.json MODE   `obs_prog profiler` (MODE mark|profiler)
    check_obs.py report-signal STEM TRACE.json   `obs_prog spin` killed by a signal
    check_obs.py report-unsupported STEM NAME=COUNT...  STEM.unsupported.csv lists exactly these
    check_obs.py smi-has      PID MIB     `npu-smi info` output on stdin lists PID with >= MIB
    check_obs.py smi-lacks    PID         ... does not list PID
Exit 0 when every check holds; otherwise prints each failure.
"""
import csv
import json
import re
import sys

fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)
    return cond


def load_trace(path):
    with open(path) as f:
        d = json.load(f)          # must be valid JSON
    evs = d["traceEvents"]
    xs = [e for e in evs if e.get("ph") == "X"]
    for e in xs:
        for k in ("pid", "tid", "ts", "dur", "name", "cat"):
            check(k in e, "event without %s: %r" % (k, e))
        check(e["dur"] >= 0 and e["ts"] >= 0, "negative time: %r" % e)
    return d, evs, xs


def tracks(xs):
    t = {}
    for i, e in enumerate(xs):
        t.setdefault((e["pid"], e["tid"]), []).append((i, e))
    return t


def check_structure(evs, xs):
    """Per track: file order is start order; spans nest (no partial overlap); every track
    is named."""
    named = {(e["pid"], e.get("tid")) for e in evs if e.get("ph") == "M" and e["name"] == "thread_name"}
    for key, lst in tracks(xs).items():
        check(key in named, "track %r has no thread_name" % (key,))
        prev = -1
        stack = []
        for _, e in lst:
            ts, end = e["ts"], e["ts"] + e["dur"]
            check(ts >= prev, "track %r not in start order at %r" % (key, e["name"]))
            prev = ts
            while stack and ts >= stack[-1][0] - 1e-9:
                stack.pop()
            if stack:
                check(end <= stack[-1][0] + 1e-6,
                      "track %r: %s [%g,%g] overlaps its parent %s ending %g" %
                      (key, e["name"], ts, end, stack[-1][1], stack[-1][0]))
            stack.append((end, e["name"]))


def trace_work(path):
    d, evs, xs = load_trace(path)
    check_structure(evs, xs)
    host_pid = min(e["pid"] for e in xs)
    stream_tracks = [(k, [e for _, e in v]) for k, v in tracks(xs).items() if k[0] >= 100000000]
    check(stream_tracks, "no stream track")
    found = False
    for key, lst in stream_tracks:
        h2d = [e for e in lst if e["cat"] == "memcpy" and e["args"]["kind"] == "H2D" and e["args"]["bytes"] == 4000]
        kern = [e for e in lst if e["cat"] == "kernel" and "scale_kernel" in e["name"]]
        d2h = [e for e in lst if e["cat"] == "memcpy" and e["args"]["kind"] == "D2H" and e["args"]["bytes"] == 4000]
        gemm = [e for e in lst if e["cat"] == "gemm"]
        if not kern:
            continue
        found = True
        check(len(h2d) == 1, "stream %r: %d H2D copies of 4000 bytes" % (key, len(h2d)))
        check(len(kern) == 5, "stream %r: %d scale_kernel spans, expected 5" % (key, len(kern)))
        check(len(d2h) == 1, "stream %r: %d D2H copies of 4000 bytes" % (key, len(d2h)))
        for k in kern:
            check(k["args"] == {"grid": "(8,1,1)", "block": "(128,1,1)", "mangled": "_Z12scale_kernelPffi"},
                  "kernel args %r" % k["args"])
            check(k["name"] == "scale_kernel(float*, float, int)", "kernel span name %r" % k["name"])
        if h2d and kern and d2h:
            check(kern[0]["ts"] >= h2d[0]["ts"] + h2d[0]["dur"], "first kernel starts before the H2D copy ends")
            check(d2h[0]["ts"] >= kern[-1]["ts"] + kern[-1]["dur"], "D2H copy starts before the last kernel ends")
        check(len(gemm) == 1 and gemm[0]["args"]["m"] == 16 and gemm[0]["args"]["n"] == 8 and
              gemm[0]["args"]["k"] == 4 and gemm[0]["args"]["type"] == "f32",
              "stream %r: gemm spans %r" % (key, gemm))
    check(found, "no stream track with scale_kernel")
    main = [e for e in xs if e["pid"] == host_pid and e["tid"] == host_pid]
    names = [e["name"] for e in main]
    for n, c in (("cudaMalloc", 5), ("cudaMemcpyAsync", 3), ("cudaMemcpy", 2), ("cudaFree", 4),
                 ("cudaStreamCreate", 1), ("cublasSgemm_v2", 1)):
        check(names.count(n) == c, "host track: %d %s spans, expected %d" % (names.count(n), n, c))
    launches = names.count("__cudaLaunchKernel") + names.count("cudaLaunchKernel")
    check(launches == 5, "host track: %d launch spans" % launches)
    check(any(e["name"] == "cudaMalloc" and e.get("args", {}).get("error") == 2 for e in main),
          "the failing cudaMalloc carries error 2")
    other = [e for e in xs if e["pid"] == host_pid and e["tid"] != host_pid and e["cat"] == "api"]
    check([e["name"] for e in other] == ["cudaGetDeviceCount"],
          "second host thread track: %r" % [e["name"] for e in other])
    # order on the host track: the H2D cudaMemcpyAsync precedes the first launch
    first_copy = names.index("cudaMemcpyAsync") if "cudaMemcpyAsync" in names else -1
    first_launch = names.index("__cudaLaunchKernel") if "__cudaLaunchKernel" in names else -1
    check(0 <= first_copy < first_launch, "host track order: copy %d launch %d" % (first_copy, first_launch))


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def report_work(stem):
    with open(stem + ".txt") as f:
        txt = f.read()
    for s in ("migration report", "CUDA API calls", "Unsupported calls", "Kernels", "Peak memory per device", "NPU 0:"):
        check(s in txt, "summary lacks %r" % s)
    api = {r["API"]: r for r in read_csv(stem + ".api.csv")}
    want = {"cudaMalloc": 5, "cudaFree": 4, "cudaMemcpy": 2, "cudaMemcpyAsync": 3, "cudaStreamCreate": 1,
            "cudaStreamSynchronize": 3, "cudaStreamDestroy": 1, "cublasSgemm_v2": 1, "cublasCreate_v2": 1,
            "cudaGetDeviceCount": 1, "cudaCreateTextureObject": 2, "__cudaLaunchKernel": 5}
    for n, c in want.items():
        check(n in api and int(api[n]["count"]) == c,
              "api.csv %s count %s, expected %d" % (n, api.get(n, {}).get("count"), c))
    if "cudaMalloc" in api:
        check(api["cudaMalloc"]["status"].startswith("errors 1"), "cudaMalloc status %r" % api["cudaMalloc"]["status"])
        check("aclrtMalloc" in api["cudaMalloc"]["npu_operation"], "cudaMalloc mapping")
        check(api["cudaMalloc"]["library"] == "cudart", "cudaMalloc library")
    if "cublasSgemm_v2" in api:
        check("cube" in api["cublasSgemm_v2"]["npu_operation"], "sgemm mapping %r" % api["cublasSgemm_v2"]["npu_operation"])
    if "cudaCreateTextureObject" in api:
        check(api["cudaCreateTextureObject"]["status"] == "unsupported", "texture status")
        check("texture" in api["cudaCreateTextureObject"]["note"], "texture suggestion")
    check("cudaMemset" not in api, "cudaMemset was never called")
    uns = read_csv(stem + ".unsupported.csv")
    check([(r["API"], r["count"]) for r in uns] == [("cudaCreateTextureObject", "2")], "unsupported.csv %r" % uns)
    ks = read_csv(stem + ".kernels.csv")
    check(len(ks) == 1 and "scale_kernel" in ks[0]["kernel"] and ks[0]["launches"] == "5", "kernels.csv %r" % ks)
    if ks:
        check(ks[0]["name"] == "scale_kernel(float*, float, int)", "demangled name %r" % ks[0]["name"])
        check(float(ks[0]["time_us"]) > 0 and float(ks[0]["jit_us"]) >= 0, "kernel times")
    mem = read_csv(stem + ".memory.csv")
    check(len(mem) >= 1 and mem[0]["device"] == "0", "memory.csv %r" % mem)
    if mem:
        check(int(mem[0]["peak_allocated"]) >= 4000 + 256 + 256 + 512, "peak allocated %s" % mem[0]["peak_allocated"])
        check(int(mem[0]["allocated_at_exit"]) == 0 and int(mem[0]["capacity"]) > 0, "memory at exit")
    ops = {r["operation"]: r for r in read_csv(stem + ".ops.csv")}
    check(ops.get("memcpy H2D", {}).get("bytes_or_flop") == str(4000 + 256 + 128), "H2D bytes %r" % ops.get("memcpy H2D"))
    check(ops.get("cube gemm f32", {}).get("bytes_or_flop") == str(2 * 16 * 8 * 4), "gemm flop %r" % ops.get("cube gemm f32"))


def trace_exitcb(path):
    d, evs, xs = load_trace(path)
    check_structure(evs, xs)
    cats = [e["cat"] for e in xs]
    check("memset" in cats, "no memset span")
    check(cats.count("kernel") >= 1, "no kernel span")
    check(any(e["name"] == "cudaLaunchHostFunc" for e in xs), "no cudaLaunchHostFunc span")
    check(not any(e["cat"] == "hostfn" for e in xs), "the exiting host function cannot have ended")


def report_exitcb(stem):
    api = {r["API"]: r for r in read_csv(stem + ".api.csv")}
    check(api.get("cudaLaunchHostFunc", {}).get("count") == "1", "cudaLaunchHostFunc %r" % api.get("cudaLaunchHostFunc"))
    check(api.get("cudaMemsetAsync", {}).get("count") == "1", "cudaMemsetAsync")
    with open(stem + ".txt") as f:
        check("Peak memory per device" in f.read(), "summary incomplete")


def trace_unit(path, nthreads, ncopies):
    d, evs, xs = load_trace(path)
    check_structure(evs, xs)
    copies = [e for e in xs if e["cat"] == "memcpy"]
    check(len(copies) == nthreads * ncopies, "%d copy spans, expected %d" % (len(copies), nthreads * ncopies))
    per = {}
    for e in copies:
        per.setdefault((e["pid"], e["tid"]), []).append(e)
    check(len(per) == nthreads, "%d stream tracks with copies, expected %d" % (len(per), nthreads))
    for key, lst in per.items():
        sizes = [e["args"]["bytes"] for e in lst]
        check(sizes == list(range(1, ncopies + 1)), "stream %r copies out of order" % (key,))
    sets = [e for e in xs if e["cat"] == "memset"]
    check(len(sets) == nthreads, "%d memsets" % len(sets))
    hostfn = [e for e in xs if e["cat"] == "hostfn" and e["name"] == "host function"]
    check(len(hostfn) == nthreads, "%d host function spans, expected %d" % (len(hostfn), nthreads))
    gemm = [e for e in xs if e["cat"] == "gemm" and e["args"]["m"] == 3]
    check(len(gemm) == 1 and gemm[0]["args"]["n"] == 5 and gemm[0]["args"]["k"] == 7
          and gemm[0]["pid"] < 100000000, "direct gemm on the host thread track: %r" % gemm)
    outer = [e for e in xs if e["name"] == "outer"]
    inner = [e for e in xs if e["name"] == "inner"]
    check(len(outer) == 1 and len(inner) == 1, "outer/inner API spans")
    if outer and inner:
        o, i = outer[0], inner[0]
        check(o["tid"] == i["tid"] and o["ts"] <= i["ts"] and i["ts"] + i["dur"] <= o["ts"] + o["dur"],
              "inner span not nested in outer")
        check(o.get("args", {}).get("error") == 7, "outer span error %r" % o.get("args"))


def report_unit(stem):
    api = {r["API"]: r for r in read_csv(stem + ".api.csv")}
    check(api.get("outer", {}).get("count") == "1", "outer %r" % api.get("outer"))
    check(api.get("outer", {}).get("status") == "errors 1 (last 7)", "outer status %r" % api.get("outer"))
    check("inner" not in api, "a nested call is counted as a program call")
    check(api.get("obsUnsupportedCall", {}).get("count") == "2" and
          api["obsUnsupportedCall"]["status"] == "unsupported", "unsupported %r" % api.get("obsUnsupportedCall"))
    ops = {r["operation"]: r for r in read_csv(stem + ".ops.csv")}
    check("memcpy D2D" in ops and "memset" in ops and "cube gemm f32" in ops, "ops %r" % list(ops))


def report_kernels(stem, n):
    ks = [r for r in read_csv(stem + ".kernels.csv") if r["kernel"].startswith("obs_kernel_")]
    check(len(ks) == n, "kernels.csv lists %d obs kernels, expected %d" % (len(ks), n))
    got = {r["kernel"]: int(r["launches"]) for r in ks}
    bad = [k for k in range(n) if got.get("obs_kernel_%05d" % k) != k % 3 + 1]
    check(not bad, "launch counts wrong for %d kernels, first %r" % (len(bad), bad[:5]))
    with open(stem + ".txt") as f:
        txt = f.read()
    check("Kernels: %d distinct" % n in txt or "Kernels: %d distinct" % (n + 1) in txt,
          "summary kernel count: %r" % re.findall(r"Kernels: .*", txt))
    check("missing" not in txt, "the summary says kernels are missing")


def trace_profiler(path, mode):
    """obs_prog profiler launches scale_kernel with grids 1, 2, 3, 4, 5: grid 1 before any
    cudaProfilerStart, 2 inside the first range, 3 after its Stop, 4 inside a second range
    (a Start while started in between changes nothing), 5 after the second Stop."""
    d, evs, xs = load_trace(path)
    check_structure(evs, [e for e in xs if e["cat"] != "profiler_range"])
    od = d["otherData"]
    check(od.get("profiler_ranges") == 2, "profiler_ranges %r" % od.get("profiler_ranges"))
    check(od.get("profiler_range_mode") == mode, "mode %r" % od.get("profiler_range_mode"))
    ranges = [e for e in xs if e["cat"] == "profiler_range"]
    check([e["name"] for e in ranges] == ["profiler range 1", "profiler range 2"], "range slices %r" % ranges)
    ks = {}
    for e in xs:
        if e["cat"].split(",")[0] == "kernel":
            ks[e["args"]["grid"]] = e
    inside = {"(2,1,1)", "(4,1,1)"}
    for g in ("(1,1,1)", "(2,1,1)", "(3,1,1)", "(4,1,1)", "(5,1,1)"):
        if mode == "profiler" and g not in inside:
            check(g not in ks, "kernel grid %s outside the ranges was kept" % g)
            continue
        if not check(g in ks, "no kernel with grid %s" % g):
            continue
        marked = "outside_profiler_range" in ks[g]["cat"].split(",")
        check(marked == (g not in inside), "kernel grid %s cat %r" % (g, ks[g]["cat"]))
        r = ranges[0] if g == "(2,1,1)" else ranges[1] if g == "(4,1,1)" else None
        if r:
            check(r["ts"] <= ks[g]["ts"] <= r["ts"] + r["dur"], "kernel %s not inside its range slice" % g)
    if mode == "profiler":
        check(od.get("left_out_outside_profiler_range", 0) > 0, "nothing left out")
        check(all("outside_profiler_range" not in e["cat"] for e in xs), "an event outside was kept")
    else:
        check(od.get("outside_profiler_range", 0) >= 3, "outside count %r" % od.get("outside_profiler_range"))
    # the Start calls overlap the ranges they open: inside, in both modes
    starts = [e for e in xs if e["name"] == "cudaProfilerStart"]
    check(len(starts) == 3 and all("error" not in e.get("args", {}) and
                                   "outside_profiler_range" not in e["cat"] for e in starts),
          "cudaProfilerStart spans %r" % starts)


def report_signal(stem, trace):
    with open(stem + ".txt") as f:
        txt = f.read()
    for s in ("migration report", "CUDA API calls", "Kernels", "Peak memory per device", "NPU 0:"):
        check(s in txt, "summary lacks %r" % s)
    api = {r["API"]: r for r in read_csv(stem + ".api.csv")}
    check(int(api.get("cudaMalloc", {}).get("count", 0)) == 1, "cudaMalloc %r" % api.get("cudaMalloc"))
    ks = read_csv(stem + ".kernels.csv")
    check(len(ks) == 1 and int(ks[0]["launches"]) >= 1, "kernels.csv %r" % ks)
    mem = read_csv(stem + ".memory.csv")
    check(len(mem) >= 1 and int(mem[0]["allocated_at_exit"]) > 0, "memory.csv %r (killed while holding memory)" % mem)
    d, evs, xs = load_trace(trace)
    check_structure(evs, xs)
    check(any(e["cat"] == "kernel" for e in xs), "no kernel span in the trace")


def report_unsupported(stem, expected):
    """expected: {name: count}; the unsupported calls must be exactly these (a static cudart
    resolves every driver entry point at start-up: none of the stubs may be called then)."""
    uns = {r["API"]: r for r in read_csv(stem + ".unsupported.csv")}
    check(set(uns) == set(expected), "unsupported.csv lists %r, expected %r" % (sorted(uns), sorted(expected)))
    with open(stem + ".txt") as f:
        txt = f.read()
    for name, count in expected.items():
        check(name in uns and uns[name]["count"] == str(count) and uns[name]["library"] == "driver",
              "unsupported.csv %s: %r" % (name, uns.get(name)))
        check(re.search(r"^%s +%d +suggestion" % (re.escape(name), count), txt, re.M) is not None,
              "summary does not name %s" % name)


def trace_capped(path, cap):
    d, evs, xs = load_trace(path)
    check(len(xs) == cap, "%d events with a cap of %d" % (len(xs), cap))
    check(d["otherData"]["dropped"] > 0, "dropped count %r" % d["otherData"])


def smi_rows(text):
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"\d+\s+\d+", cells[0]) and cells[1].isdigit():
            rows.append((int(cells[1]), cells[2], int(cells[3])))
    return rows


def main(a):
    cmd = a[0]
    if cmd == "trace-work":
        trace_work(a[1])
    elif cmd == "report-work":
        report_work(a[1])
    elif cmd == "trace-exitcb":
        trace_exitcb(a[1])
    elif cmd == "report-exitcb":
        report_exitcb(a[1])
    elif cmd == "trace-unit":
        trace_unit(a[1], int(a[2]), int(a[3]))
    elif cmd == "report-unit":
        report_unit(a[1])
    elif cmd == "trace-capped":
        trace_capped(a[1], int(a[2]))
    elif cmd == "report-kernels":
        report_kernels(a[1], int(a[2]))
    elif cmd == "trace-profiler":
        trace_profiler(a[1], a[2])
    elif cmd == "report-signal":
        report_signal(a[1], a[2])
    elif cmd == "report-unsupported":
        report_unsupported(a[1], {x.split("=")[0]: int(x.split("=")[1]) for x in a[2:]})
    elif cmd in ("smi-has", "smi-lacks"):
        text = sys.stdin.read()
        check("NPU   Name" in text and "Health" in text and "HBM-Usage(MB)" in text and "Process memory(MB)" in text,
              "npu-smi layout")
        rows = smi_rows(text)
        pid = int(a[1])
        mine = [r for r in rows if r[0] == pid]
        if cmd == "smi-has":
            check(len(mine) == 1 and mine[0][2] >= int(a[2]), "pid %d with >= %s MB not listed: %r" % (pid, a[2], rows))
            bus = [ln for ln in text.splitlines() if re.search(r"\b0000:[0-9A-F]{2}:00\.0\b", ln)]
            hbm = re.findall(r"(\d+)\s*/\s*(\d+)", bus[0]) if bus else []
            check(hbm and int(hbm[-1][0]) >= int(a[2]) and int(hbm[-1][1]) > 0,
                  "HBM usage does not include the process: %r" % bus)
        else:
            check(not mine, "pid %d still listed: %r" % (pid, rows))
    else:
        print(__doc__)
        return 2
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
