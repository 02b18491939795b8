#!/usr/bin/env bash
# tests/obs/run_obs.sh - observability tier: migration report, timeline trace, npu-smi.
# Prints "PASS name" / "FAIL name" lines (tests/run.sh collects them). Each check's outputs
# are asserted by tests/obs/check_obs.py against what the test programs are known to do.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=$ROOT/build
O=$B/tests/obs
W=$(mktemp -d "${TMPDIR:-/tmp}/ttn-obs.XXXXXX")
[ -n "${OBS_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
mkdir -p "$O"
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$B/kcache}
export TRANSFER_TO_NPU_SMI_DIR=$W/smi          # private: other tests publish elsewhere
PRE=$B/lib/libtransfer_to_npu.so
CHK="python3 $ROOT/tests/obs/check_obs.py"
LIBS="-lopenblas -lffi -lzstd -llz4 -ldl -lm -lpthread"

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '    %s\n' "$@"; }
verdict() { # name rc log
    if [ "$2" -eq 0 ]; then ok "$1"; else bad "$1"; sed 's/^/    /' "$3" | tail -20; fi
}

# --- build ---
if ! { [ "$O/obs_unit" -nt tests/obs/obs_unit.c ] && [ "$O/obs_unit" -nt "$B/libnpu_runtime.a" ]; }; then
    cc -O2 -g -Wall -Wextra -pthread -D_GNU_SOURCE -I. -Itests tests/obs/obs_unit.c \
        "$B/libnpu_runtime.a" $LIBS -o "$O/obs_unit" >"$W/build-unit.log" 2>&1 || cat "$W/build-unit.log"
fi
if ! [ "$O/obs_prog" -nt tests/obs/obs_prog.cu ]; then
    /usr/local/cuda/bin/nvcc -cudart shared -Itests tests/obs/obs_prog.cu -lcublas -o "$O/obs_prog" \
        >"$W/build-prog.log" 2>&1 || cat "$W/build-prog.log"
fi
if ! [ "$O/static_unsupported" -nt tests/cuda/static_unsupported.cu ]; then
    /usr/local/cuda/bin/nvcc -cudart static -Itests tests/cuda/static_unsupported.cu -o "$O/static_unsupported" \
        >"$W/build-static.log" 2>&1 || cat "$W/build-static.log"
fi
run_cuda() { local mode=$1; shift; env "$@" LD_PRELOAD="$PRE" timeout -k 5 120 "$O/obs_prog" "$mode"; }  # MODE VAR=value...

# --- every exported entry point carries NPU_API_SCOPE (so the report sees every call) ---
python3 tests/obs/insert_api_scope.py --check interpose/*/*.c >"$W/cov.log" 2>&1
verdict api_scope_coverage $? "$W/cov.log"

# --- runtime-level hooks: bad inputs, nesting, 4 threads x 4 streams, direct GEMM ---
(cd "$W" && TRANSFER_TO_NPU_TRACE=$W/u.json TRANSFER_TO_NPU_REPORT=$W/u.txt timeout 120 "$O/obs_unit" 4 50 &&
    $CHK trace-unit "$W/u.json" 4 50 && $CHK report-unit "$W/u") >"$W/unit.log" 2>&1
verdict unit_hooks $? "$W/unit.log"

(TRANSFER_TO_NPU_TRACE=$W/cap.json TRANSFER_TO_NPU_TRACE_MAX=10 timeout 120 "$O/obs_unit" 2 30 &&
    $CHK trace-capped "$W/cap.json" 10) >"$W/cap.log" 2>&1
verdict trace_capped $? "$W/cap.log"

# --- a CUDA program: trace and report ---
(run_cuda work TRANSFER_TO_NPU_TRACE=$W/t.json TRANSFER_TO_NPU_REPORT=$W/rep.txt &&
    python3 -m json.tool "$W/t.json" >/dev/null && $CHK trace-work "$W/t.json") >"$W/tw.log" 2>&1
verdict trace_spans $? "$W/tw.log"
$CHK report-work "$W/rep" >"$W/rw.log" 2>&1
verdict report_counts $? "$W/rw.log"

(run_cuda work TRANSFER_TO_NPU_REPORT=1 2>"$W/stderr.txt" &&
    grep -q "migration report" "$W/stderr.txt" && grep -Eq "^cudaMalloc +5 " "$W/stderr.txt" &&
    grep -q "cudaCreateTextureObject .*suggestion" "$W/stderr.txt") >"$W/rs.log" 2>&1
verdict report_stderr $? "$W/rs.log"

mkdir -p "$W/rdir"
(run_cuda work TRANSFER_TO_NPU_REPORT=$W/rdir 2>/dev/null && test -s "$W/rdir/transfer_to_npu_report.txt" &&
    test -s "$W/rdir/transfer_to_npu_report.api.csv" &&
    run_cuda work TRANSFER_TO_NPU_REPORT=$W/rdir/r-%p.log 2>/dev/null &&
    ls "$W/rdir" | grep -Eq '^r-[0-9]+\.log$' && ls "$W/rdir" | grep -Eq '^r-[0-9]+\.kernels\.csv$') >"$W/rd.log" 2>&1
verdict report_paths $? "$W/rd.log"

mkdir -p "$W/rel"
(cd "$W/rel" && run_cuda work TRANSFER_TO_NPU_TRACE=t-%p.json TRANSFER_TO_NPU_REPORT=r.txt 2>/dev/null &&
    ls | grep -Eq '^t-[0-9]+\.json$' && test -s r.api.csv && $CHK trace-work t-*.json) >"$W/rel.log" 2>&1
verdict relative_paths $? "$W/rel.log"

# --- exit() from inside a host callback while work is in flight ---
(run_cuda exitcb TRANSFER_TO_NPU_TRACE=$W/x.json TRANSFER_TO_NPU_REPORT=$W/x.txt &&
    $CHK trace-exitcb "$W/x.json" && $CHK report-exitcb "$W/x") >"$W/x.log" 2>&1
verdict exit_in_callback $? "$W/x.log"

# --- more kernels than the report's first table holds (it once stopped at 2048) ---
(cd "$W" && TRANSFER_TO_NPU_REPORT=$W/k.txt TRANSFER_TO_NPU_TRACE=$W/k.json timeout 120 "$O/obs_unit" 1 4 5000 &&
    $CHK report-kernels "$W/k" 5000 && python3 -m json.tool "$W/k.json" >/dev/null) >"$W/k.log" 2>&1
verdict report_5000_kernels $? "$W/k.log"

# --- static cudart: an unimplemented driver function is named in the report ---
(env TRANSFER_TO_NPU_REPORT=$W/st.txt LD_PRELOAD="$PRE" LD_LIBRARY_PATH="$B/lib" timeout -k 5 120 \
    "$O/static_unsupported" && $CHK report-unsupported "$W/st" cuGraphCreate=2 cuIpcGetMemHandle=1) \
    >"$W/st.log" 2>&1
verdict report_static_unsupported $? "$W/st.log"

# --- cudaProfilerStart/Stop ranges: marked by default, or the only events kept ---
(run_cuda profiler TRANSFER_TO_NPU_TRACE=$W/p.json && $CHK trace-profiler "$W/p.json" mark) >"$W/p.log" 2>&1
verdict trace_profiler_marked $? "$W/p.log"
(run_cuda profiler TRANSFER_TO_NPU_TRACE=$W/po.json TRANSFER_TO_NPU_TRACE_RANGE=profiler &&
    $CHK trace-profiler "$W/po.json" profiler) >"$W/po.log" 2>&1
verdict trace_profiler_only $? "$W/po.log"

# --- killed by a signal: report and trace are still written, and the process dies by it ---
# spin_kill NAME SIGNAL EXPECTED_RC [spin argument]
spin_kill() {
    local name=$1 sig=$2 want=$3 how=${4:-} out=$W/$1.out
    env TRANSFER_TO_NPU_REPORT=$W/$name.txt TRANSFER_TO_NPU_TRACE=$W/$name.json LD_PRELOAD="$PRE" \
        timeout -k 5 90 "$O/obs_prog" spin $how </dev/null >"$out" 2>&1 &
    local bg=$! pid=""
    for _ in $(seq 600); do grep -q READY "$out" && break; sleep 0.1; done
    pid=$(sed -n 's/^READY //p' "$out")
    [ -n "$pid" ] || { echo "spin did not start"; cat "$out"; kill "$bg"; return 1; }
    kill -s "$sig" "$pid"
    wait "$bg"; local rc=$?
    [ "$rc" -eq "$want" ] || { echo "exit status $rc, expected $want"; cat "$out"; return 1; }
    $CHK report-signal "$W/$name" "$W/$name.json"
}
spin_kill term TERM 143 >"$W/term.log" 2>&1
verdict killed_by_sigterm $? "$W/term.log"
spin_kill int INT 130 >"$W/int.log" 2>&1
verdict killed_by_sigint $? "$W/int.log"
spin_kill own TERM 7 own >"$W/own.log" 2>&1
verdict sigterm_program_handler_first $? "$W/own.log"
spin_kill late TERM 7 late >"$W/late.log" 2>&1
verdict sigterm_program_handler_later $? "$W/late.log"
# through timeout(1), the way a batch job ends: timeout relays the SIGTERM it gets to the
# program (sent once the program is running, so the test does not depend on timing)
timeout_test() {
    local out=$W/to.out
    env TRANSFER_TO_NPU_REPORT=$W/to.txt TRANSFER_TO_NPU_TRACE=$W/to.json LD_PRELOAD="$PRE" \
        timeout --preserve-status -s TERM 600 "$O/obs_prog" spin </dev/null >"$out" 2>&1 &
    local bg=$!
    for _ in $(seq 600); do grep -q READY "$out" && break; sleep 0.1; done
    grep -q READY "$out" || { echo "spin did not start"; cat "$out"; kill "$bg"; return 1; }
    kill -s TERM "$bg"
    wait "$bg"; local rc=$?
    [ "$rc" -eq 143 ] || { echo "exit status $rc, expected 143"; cat "$out"; return 1; }
    $CHK report-signal "$W/to" "$W/to.json"
}
timeout_test >"$W/to.log" 2>&1
verdict timeout_sigterm $? "$W/to.log"

# --- off by default; bad paths do not hurt the program ---
mkdir -p "$W/quiet"
(cd "$W/quiet" && run_cuda work TRANSFER_TO_NPU_REPORT=0 2>"$W/quiet.err" && test -z "$(ls -A "$W/quiet")" &&
    ! grep -q "migration report" "$W/quiet.err") >"$W/q.log" 2>&1
verdict disabled_by_default $? "$W/q.log"

(run_cuda work TRANSFER_TO_NPU_REPORT=$W/no/such/dir/r.txt TRANSFER_TO_NPU_TRACE=$W/no/such/t.json 2>"$W/badp.err" &&
    grep -q "cannot write" "$W/badp.err") >"$W/bp.log" 2>&1
verdict bad_output_paths $? "$W/bp.log"

# --- npu-smi: a running process with 96 MiB appears, then disappears; stale entries ignored ---
smi_test() {
    local go=$W/hold.go out=$W/hold.out pid=""
    env TRANSFER_TO_NPU_SMI_INTERVAL_MS=50 LD_PRELOAD="$PRE" timeout -k 5 90 "$O/obs_prog" hold 96 "$go" </dev/null >"$out" 2>&1 &
    local bg=$!
    for _ in $(seq 300); do grep -q READY "$out" && break; sleep 0.1; done
    pid=$(sed -n 's/^READY //p' "$out")
    [ -n "$pid" ] || { echo "hold process did not start"; cat "$out"; touch "$go"; return 1; }
    local listed=1
    for _ in $(seq 50); do
        python3 scripts/npu-smi info >"$W/smi1.txt" && $CHK smi-has "$pid" 96 <"$W/smi1.txt" >/dev/null && { listed=0; break; }
        sleep 0.1
    done
    cat "$W/smi1.txt"
    $CHK smi-has "$pid" 96 <"$W/smi1.txt" || listed=1
    touch "$go"
    wait "$bg"; local rc=$?
    [ "$rc" -eq 0 ] || { echo "hold process exited $rc"; cat "$out"; return 1; }
    python3 scripts/npu-smi info >"$W/smi2.txt" && $CHK smi-lacks "$pid" <"$W/smi2.txt" || return 1
    test ! -e "$TRANSFER_TO_NPU_SMI_DIR/$pid.json" || { echo "state file left behind"; return 1; }
    return $listed
}
smi_test >"$W/smi.log" 2>&1
verdict npu_smi_process $? "$W/smi.log"

stale_test() {
    local d=$TRANSFER_TO_NPU_SMI_DIR
    mkdir -p "$d"
    # a pid that cannot exist, and a live pid (this shell) with a different start time
    echo '{"pid":999999999,"name":"ghost","starttime":1,"devices":[{"device":0,"physical_id":0,"name":"Ascend910B","total":1073741824,"used":536870912}]}' >"$d/999999999.json"
    echo "{\"pid\":$$,\"name\":\"reused\",\"starttime\":1,\"devices\":[{\"device\":0,\"physical_id\":0,\"name\":\"Ascend910B\",\"total\":1073741824,\"used\":536870912}]}" >"$d/$$.json"
    echo 'not json' >"$d/12.json"
    python3 scripts/npu-smi info >"$W/smi3.txt" || return 1
    cat "$W/smi3.txt"
    $CHK smi-lacks 999999999 <"$W/smi3.txt" && $CHK smi-lacks $$ <"$W/smi3.txt" || return 1
    grep -q "No running processes found in NPU 0" "$W/smi3.txt" || return 1
    test ! -e "$d/999999999.json" && test ! -e "$d/$$.json" || { echo "stale files not removed"; return 1; }
    python3 scripts/npu-smi info --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["devices"][0]["processes"] == []' || return 1
    python3 scripts/npu-smi bogus >/dev/null 2>&1 && return 1
    return 0
}
stale_test >"$W/stale.log" 2>&1
verdict npu_smi_stale $? "$W/stale.log"

smi_off_test() {
    mkdir -p "$W/smi0"
    env TRANSFER_TO_NPU_SMI=0 TRANSFER_TO_NPU_SMI_DIR=$W/smi0 TRANSFER_TO_NPU_SMI_INTERVAL_MS=20 \
        LD_PRELOAD="$PRE" timeout 90 "$O/obs_prog" hold 8 "$W/h0.go" </dev/null >"$W/h0.out" 2>&1 &
    local bg=$!
    for _ in $(seq 300); do grep -q READY "$W/h0.out" 2>/dev/null && break; sleep 0.1; done
    sleep 0.3
    grep -q READY "$W/h0.out" && test -z "$(ls -A "$W/smi0")"; local rc=$?
    touch "$W/h0.go"
    wait "$bg"
    return $rc
}
smi_off_test >"$W/s0.log" 2>&1
verdict npu_smi_disabled $? "$W/s0.log"
exit 0
