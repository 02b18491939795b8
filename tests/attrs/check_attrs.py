#!/usr/bin/env python3
"""check_attrs.py PTXFILE PTXAS_LOG PROBE_OUT CAP

Compares the attributes our driver reports for the kernels of PTXFILE (attrs_probe output)
with what ptxas -v reports for the same PTX (ptxas -maxrregcount CAP when CAP > 0):
  const  == the module's user constant bank, "N bytes cmem[3]" (0 when ptxas prints none)
  shared == "N bytes smem" of the kernel
  local  == its "N bytes stack frame" when ptxas spills nothing (spills are ptxas's own)
  maxthreads == min(1024, .maxntid product)
  regs: within the limits ptxas obeys (CAP unless the kernel has launch bounds, .maxnreg,
        65536 / (.maxntid x .minnctapersm), 255) and plausible next to ptxas's count p:
        p/5 <= regs <= 2p + 8
Prints one line per failed check; exit status 0 when all hold.
"""
import re
import sys


def parse_ptxas(text):
    cmem3 = 0
    m = re.search(r"(\d+) bytes cmem\[3\]", text)
    if m:
        cmem3 = int(m.group(1))
    funcs = {}
    cur = None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = funcs.setdefault(m.group(1), {"smem": 0, "frame": 0, "spill": 0})
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), {"smem": 0, "frame": 0, "spill": 0})
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
        if m and cur is not None:
            cur["frame"], cur["spill"] = int(m.group(1)), int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and cur is not None:
            cur["regs"] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            cur["smem"] = int(s.group(1)) if s else 0
    return cmem3, funcs


def directives(ptx, name):
    """.maxntid / .minnctapersm / .maxnreg of entry name."""
    m = re.search(r"\.entry\s+%s\s*\((.*?)\)(.*?)\{" % re.escape(name), ptx, re.S)
    d = {"maxntid": 0, "minctas": 0, "maxnreg": 0}
    if not m:
        return d
    tail = m.group(2)
    t = re.search(r"\.maxntid\s+([\d\s,]+)", tail)
    if t:
        prod = 1
        for x in t.group(1).replace(",", " ").split():
            prod *= int(x)
        d["maxntid"] = prod
    t = re.search(r"\.minnctapersm\s+(\d+)", tail)
    if t:
        d["minctas"] = int(t.group(1))
    t = re.search(r"\.maxnreg\s+(\d+)", tail)
    if t:
        d["maxnreg"] = int(t.group(1))
    return d


def main(ptxfile, logfile, probefile, cap):
    ptx = open(ptxfile).read()
    cmem3, funcs = parse_ptxas(open(logfile).read())
    fails = []
    seen = 0
    for line in open(probefile):
        if line.startswith("LAUNCH") and "FAIL" in line:
            fails.append(line.strip())
        if not line.startswith("KERNEL "):
            continue
        _, name, regs, const, local, shared, maxthr = line.split()
        regs, const, local, shared, maxthr = map(int, (regs, const, local, shared, maxthr))
        seen += 1
        ref = funcs.get(name)
        if ref is None or "regs" not in ref:
            fails.append("%s: ptxas said nothing about it" % name)
            continue
        d = directives(ptx, name)
        if const != cmem3:
            fails.append("%s: const %d, ptxas cmem[3] %d" % (name, const, cmem3))
        if shared != ref["smem"]:
            fails.append("%s: shared %d, ptxas smem %d" % (name, shared, ref["smem"]))
        if ref["spill"] == 0 and local != ref["frame"]:
            fails.append("%s: local %d, ptxas stack frame %d" % (name, local, ref["frame"]))
        if ref["spill"] and local > ref["frame"]:
            fails.append("%s: local %d above ptxas's frame %d" % (name, local, ref["frame"]))
        want_thr = min(1024, d["maxntid"]) if d["maxntid"] else 1024
        if maxthr != want_thr:
            fails.append("%s: max threads %d, want %d" % (name, maxthr, want_thr))
        limit = 255
        if cap and not d["maxntid"]:       # ptxas ignores -maxrregcount under launch bounds
            limit = min(limit, cap)
        if d["maxnreg"]:
            limit = min(limit, d["maxnreg"])
        if d["maxntid"]:
            limit = min(limit, 65536 // (d["maxntid"] * max(1, d["minctas"])))
        p = ref["regs"]
        if not (1 <= regs <= limit):
            fails.append("%s: %d registers, limit %d (ptxas used %d)" % (name, regs, limit, p))
        if p > limit:
            fails.append("%s: ptxas used %d registers above the limit %d we derived" % (name, p, limit))
        if not (p / 5 <= regs <= 2 * p + 8):
            fails.append("%s: %d registers is implausible next to ptxas's %d" % (name, regs, p))
        print("%-20s regs %3d (ptxas %3d, limit %3d)  const %4d  local %5d  shared %5d  maxthreads %4d"
              % (name, regs, p, limit, const, local, shared, maxthr))
    if not seen:
        fails.append("the probe printed no kernel")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
