#!/usr/bin/env python3
"""sass_compare.py - compares the SASS decoder (tests/sass/sass_tool) with NVIDIA's nvdisasm,
instruction by instruction.

  sass_compare.py raw SM TOOL BLOB           nvdisasm -b SM<SM> on a raw instruction stream
                                             (absolute branch targets) vs `TOOL raw SM BLOB`
  sass_compare.py cubin TOOL CUBIN...        nvdisasm -c on each cubin vs `TOOL dis CUBIN`;
                                             nvdisasm's labels are replaced by the address
                                             they stand for (`(.L_x_3) -> 0x1f0), which is
                                             what the decoder prints
  sass_compare.py corpus TOOL CUBIN... [--jobs N] [--cache DIR] [--sample K] [--show N]
                                             the same over many cubins, in parallel, with an
                                             optional cache of nvdisasm's output (gzip), a
                                             deterministic 1-in-K sample of the cubins, and a
                                             per-opcode table

Every mode prints "identical / mismatched / rejected" counts, the mismatches (first --show),
a per-opcode table of what is not identical, and exits 1 if any instruction is not
identical. nvdisasm comes from the PyPI package nvidia-cuda-nvdisasm (found through the
`nvidia` namespace package) or $NVDISASM.
"""
import collections
import glob
import gzip
import hashlib
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def find_nvdisasm():
    env = os.environ.get("NVDISASM")
    if env:
        return env if os.access(env, os.X_OK) else None
    try:
        import nvidia  # namespace package of the nvidia-* wheels
        for base in list(nvidia.__path__):
            for cand in sorted(glob.glob(os.path.join(base, "*", "bin", "nvdisasm"))):
                if os.access(cand, os.X_OK):
                    return cand
    except ImportError:
        pass
    return None


INS = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*;\s*$")
NOTE = re.compile(r"\s*\(\*.*?\*\)")
LABEL = re.compile(r"^([^\s/][^\s]*):\s*$")
SECTION = re.compile(r"^\s*\.section\s+(\.text\.[^,\s]+)")
REF = re.compile(r"`\(([^)+]+)(\+0x[0-9a-f]+)?\)")


def parse_nvdisasm(text):
    """-> {section: [(pc, text)]} with labels resolved to addresses; raw (-b) output goes
    under section None"""
    secs = collections.OrderedDict()
    labels = {}
    cur = None
    pending = []
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            cur = m.group(1)
            secs.setdefault(cur, [])
            pending = []
            continue
        m = LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = INS.match(NOTE.sub("", line))
        if m:
            pc = int(m.group(1), 16)
            for lab in pending:
                labels[(cur, lab)] = pc
            pending = []
            secs.setdefault(cur, []).append((pc, m.group(2)))
    for sec, lst in secs.items():
        out = []
        for pc, t in lst:
            def sub(mm):
                addr = labels.get((sec, mm.group(1)))
                if addr is None:
                    return mm.group(0)
                return "0x%x" % (addr + (int(mm.group(2)[1:], 16) if mm.group(2) else 0))
            out.append((pc, REF.sub(sub, t) if "`(" in t else t))
        secs[sec] = out
    return secs


def parse_tool(text):
    secs = collections.OrderedDict()
    cur = None
    for line in text.splitlines():
        if line.startswith("## "):
            cur = line.split()[1]
            secs[cur] = []
            continue
        pc, _, t = line.partition("\t")
        secs.setdefault(cur, []).append((int(pc, 16), t))
    return secs


RELOC_START = re.compile(r"(32@lo\(|32@hi\(|`\()")


def reloc_pattern(t):
    """nvdisasm -c prints relocated immediates as 32@lo(sym), 32@hi(sym) and call targets as
    `(sym); the decoder sees the bytes before relocation. -> a regex in which each such
    expression matches any immediate, or None when t has none."""
    if not RELOC_START.search(t):
        return None
    out, i = [], 0
    while True:
        m = RELOC_START.search(t, i)
        if not m:
            out.append(re.escape(t[i:]))
            break
        out.append(re.escape(t[i:m.start()]))
        depth, j = 1, m.end()
        while j < len(t) and depth:
            depth += {"(": 1, ")": -1}.get(t[j], 0)
            j += 1
        out.append(r"-?0x[0-9a-f]+")
        i = j
    return re.compile("^" + "".join(out) + "$")


def mnemonic(t):
    p = t.split()
    if not p:
        return "?"
    w = p[1] if p[0].startswith("@") and len(p) > 1 else p[0]
    return w.split(".")[0]


class Stats:
    def __init__(self):
        self.ident = self.mism = self.rej = self.missing = self.reloc = 0
        self.by_op = collections.defaultdict(lambda: [0, 0, 0])
        self.examples = []

    def add(self, other):
        self.ident += other.ident
        self.mism += other.mism
        self.rej += other.rej
        self.missing += other.missing
        self.reloc += other.reloc
        for k, v in other.by_op.items():
            for i in range(3):
                self.by_op[k][i] += v[i]
        self.examples.extend(other.examples[:50])

    def compare(self, where, ref, ours):
        mine = dict(ours)
        for pc, t in ref:
            op = mnemonic(t)
            got = mine.get(pc)
            if got is None:
                self.missing += 1
                self.by_op[op][2] += 1
                self.examples.append("MISSING %s %x: %s" % (where, pc, t))
            elif got.startswith("!! "):
                self.rej += 1
                self.by_op[op][2] += 1
                if len(self.examples) < 200:
                    self.examples.append("REJECT  %s %x: %s\n        %s" % (where, pc, t, got[3:]))
            elif got != t and reloc_pattern(t) and reloc_pattern(t).match(got):
                self.ident += 1         # a relocated immediate, unrelocated in the bytes
                self.reloc += 1
                self.by_op[op][0] += 1
            elif got != t:
                self.mism += 1
                self.by_op[op][1] += 1
                if len(self.examples) < 200:
                    self.examples.append("DIFF    %s %x: %s\n        ours: %s" % (where, pc, t, got))
            else:
                self.ident += 1
                self.by_op[op][0] += 1

    def report(self, title, show):
        total = self.ident + self.mism + self.rej + self.missing
        for e in self.examples[:show]:
            print(e)
        bad = sorted(((v[1] + v[2], k, v) for k, v in self.by_op.items() if v[1] or v[2]),
                     reverse=True)
        if bad:
            print("%-12s %10s %10s %10s" % ("opcode", "identical", "mismatch", "rejected"))
            for _, k, v in bad:
                print("%-12s %10d %10d %10d" % (k, v[0], v[1], v[2]))
        print("%s: %d instructions: %d identical%s, %d mismatched, %d rejected%s" % (
            title, total, self.ident,
            " (%d with relocated immediates)" % self.reloc if self.reloc else "",
            self.mism, self.rej, ", %d missing" % self.missing if self.missing else ""))
        return self.mism == 0 and self.rej == 0 and self.missing == 0


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd[:3]), p.returncode, p.stderr[:400]))
    return p.stdout


def sm_of_cubin(path):
    with open(path, "rb") as f:
        h = f.read(64)
    flags = int.from_bytes(h[0x30:0x34], "little")
    return (flags >> 8) & 0xff if h[8] >= 8 else flags & 0xff


def nvdisasm_c(nvd, cubin, cache):
    key = None
    if cache:
        with open(cubin, "rb") as f:
            key = os.path.join(cache, hashlib.sha1(f.read()).hexdigest() + ".sass.gz")
        if os.path.exists(key):
            with gzip.open(key, "rt") as f:
                return f.read()
    out = run([nvd, "-c", cubin])
    if key:
        tmp = key + ".%d.tmp" % os.getpid()
        with gzip.open(tmp, "wt", compresslevel=1) as f:
            f.write(out)
        os.replace(tmp, key)
    return out


def compare_cubin(nvd, tool, cubin, cache):
    st = Stats()
    ref = parse_nvdisasm(nvdisasm_c(nvd, cubin, cache))
    ours = parse_tool(run([tool, "dis", cubin]))
    name = os.path.basename(cubin)
    for sec, lst in ref.items():
        if sec is None:
            continue
        st.compare("%s:%s" % (name, sec[:60]), lst, ours.get(sec, []))
    return st


FLIP_BITS = [b for b in range(12, 128) if not (105 <= b < 122)]
NOP = (0x0000000000007918, 0x000fc00000000000)
ERR_AT = re.compile(r"at address 0x([0-9a-f]+)")


def nvdisasm_raw_tolerant(nvd, sm, insns, path):
    """nvdisasm -b on a list of (w0, w1); instructions it calls illegal are replaced by NOP
    (addresses stay) until it accepts the file. -> list of text or None (illegal)"""
    bad = set()
    for _ in range(8):
        with open(path, "wb") as f:
            for i, (a, b) in enumerate(insns):
                a, b = NOP if i in bad else (a, b)
                f.write(a.to_bytes(8, "little") + b.to_bytes(8, "little"))
        p = subprocess.run([nvd, "-b", "SM%s" % sm, path], capture_output=True, text=True)
        new = set(int(m.group(1), 16) // 16 for m in ERR_AT.finditer(p.stderr))
        if not new:
            if p.returncode != 0:
                raise RuntimeError("nvdisasm failed: " + p.stderr[:300])
            got = dict(parse_nvdisasm(p.stdout).get(None, []))
            return [None if i in bad else got.get(i * 16) for i in range(len(insns))]
        bad |= new
    raise RuntimeError("nvdisasm keeps rejecting instructions")


def flips(nvd, sm, tool, blob, show):
    """one instruction per (opcode bits, printed mnemonic) of the blob, each bit flipped"""
    data = open(blob, "rb").read()
    ours = parse_tool(run([tool, "raw", sm, blob])).get(None, [])
    seen = set()
    bases = []
    for pc, t in ours:
        if t.startswith("!! "):
            continue
        w0 = int.from_bytes(data[pc:pc + 8], "little")
        w1 = int.from_bytes(data[pc + 8:pc + 16], "little")
        p = t.split()
        key = (w0 & 0xfff, p[1] if p[0].startswith("@") else p[0])
        if key not in seen:
            seen.add(key)
            bases.append((w0, w1))
    insns = []
    what = []       # (base index, flipped bit or None)
    for k, (w0, w1) in enumerate(bases):
        x = w0 | (w1 << 64)
        insns.append((w0, w1))
        what.append((k, None))
        for b in FLIP_BITS:
            y = x ^ (1 << b)
            insns.append((y & (2**64 - 1), y >> 64))
            what.append((k, b))
    path = blob + ".flips.bin"
    ref = nvdisasm_raw_tolerant(nvd, sm, insns, path)
    with open(path, "wb") as f:
        for a, b in insns:
            f.write(a.to_bytes(8, "little") + b.to_bytes(8, "little"))
    mine = dict(parse_tool(run([tool, "raw", sm, path])).get(None, []))
    both = mism = accepted_illegal = gap = 0
    gaps = collections.Counter()
    examples = []
    for i, (a, b) in enumerate(insns):
        r, o = ref[i], mine.get(i * 16, "!! missing")
        ok_o = not o.startswith("!! ")
        k, bit = what[i]
        base = ref[i - (FLIP_BITS.index(bit) + 1 if bit is not None else 0)]
        tag = "bit %s of [%s]" % (bit, base)
        if r is not None and ok_o:
            both += 1
            if r != o:
                mism += 1
                examples.append("DIFF    %s %016x %016x: %s\n        ours: %s" % (tag, a, b, r, o))
        elif r is None and ok_o:
            accepted_illegal += 1
            examples.append("ILLEGAL %s %016x %016x: nvdisasm refuses it, ours: %s" % (tag, a, b, o))
        elif r is not None:
            gap += 1
            gaps[mnemonic(r)] += 1
    for e in examples[:show]:
        print(e)
    if gaps:
        print("decoded by nvdisasm only, by opcode: " +
              " ".join("%s:%d" % kv for kv in gaps.most_common()))
    print("sm_%s: %d forms, %d variants: %d decoded by both (%d differ), %d accepted by us "
          "but illegal for nvdisasm, %d refused by us only" % (
              sm, len(bases), len(insns), both, mism, accepted_illegal, gap))
    return mism == 0 and accepted_illegal == 0


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    nvd = find_nvdisasm()
    if not nvd:
        print("nvdisasm not found: pip install nvidia-cuda-nvdisasm (scripts/install-deps.sh does)")
        return 3
    mode = argv[1]
    opts = {"--jobs": "2", "--cache": "", "--sample": "1", "--show": "20"}
    args = []
    i = 2
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    show = int(opts["--show"])
    if mode == "raw":
        sm, tool, blob = args[0], args[1], args[2]
        ref = parse_nvdisasm(run([nvd, "-b", "SM%s" % sm, blob])).get(None, [])
        ours = parse_tool(run([tool, "raw", sm, blob])).get(None, [])
        st = Stats()
        st.compare("sm_%s" % sm, ref, ours)
        if len(ref) * 16 != os.path.getsize(blob):
            print("nvdisasm printed %d instructions for %d bytes" % (len(ref), os.path.getsize(blob)))
            return 1
        return 0 if st.report("sm_%s raw" % sm, show) else 1
    if mode == "flips":
        return 0 if flips(nvd, args[0], args[1], args[2], show) else 1
    if mode in ("cubin", "corpus"):
        tool, cubins = args[0], args[1:]
        k = int(opts["--sample"])
        if k > 1:
            cubins = [c for c in sorted(cubins)
                      if int(hashlib.sha1(os.path.basename(c).encode()).hexdigest(), 16) % k == 0]
        cache = opts["--cache"]
        if cache:
            os.makedirs(cache, exist_ok=True)
        by_sm = collections.defaultdict(Stats)
        total = Stats()
        with ThreadPoolExecutor(max_workers=int(opts["--jobs"])) as ex:
            futs = [(c, ex.submit(compare_cubin, nvd, tool, c, cache)) for c in cubins]
            for n, (c, f) in enumerate(futs):
                st = f.result()
                by_sm[sm_of_cubin(c)].add(st)
                total.add(st)
                if mode == "corpus" and (n + 1) % 50 == 0:
                    print("... %d/%d cubins, %d instructions" % (
                        n + 1, len(cubins), total.ident + total.mism + total.rej), flush=True)
        ok = True
        for sm in sorted(by_sm):
            ok &= by_sm[sm].report("sm_%d (%d cubins)" % (sm, sum(1 for c in cubins if sm_of_cubin(c) == sm)), show)
        return 0 if ok else 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
