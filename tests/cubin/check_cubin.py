#!/usr/bin/env python3
"""check_cubin.py - the cubin loader (npu_runtime/kernel/cubin.c) and the fatbin cubin API
against oracles that do not share its code: NVIDIA's nvdisasm (every .nv.info record, code
labels, instruction text, attribute names), binutils readelf (sections, symbols,
relocations), ptxas -v (registers, stack frame, barriers, shared, cmem[0..4] sizes, gmem),
the PTX of the same source read by the project's PTX parser (parameter layout), and facts of
the test sources themselves (launch bounds, initialisers, externs, vtables).

usage: check_cubin.py CUBIN_TOOL WORKDIR
Prints one "PASS <check>" or "FAIL <check>" line per check (tests/run.sh counts
them) with the first mismatches under a FAIL. TRANSFER_TO_NPU_CUBIN_CORPUS=path/to/
libtorch_cuda.so adds the PyTorch corpus check (every sm_75 and sm_80 cubin parsed, tallies
printed); without it that check prints SKIP.
"""
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nvdis  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.abspath(sys.argv[1])
WORK = os.path.abspath(sys.argv[2])
CUDA = os.environ.get('CUDA', '/usr/local/cuda')
NVCC = os.environ.get('NVCC', CUDA + '/bin/nvcc')
PTXAS = os.path.join(os.path.dirname(NVCC), 'ptxas')
NVLINK = os.path.join(os.path.dirname(NVCC), 'nvlink')
ARCHS = ['75', '80', '86', '89', '90']


def find_nvdisasm():
    """NVIDIA's disassembler from the PyPI package nvidia-cuda-nvdisasm (nvidia/cu13/bin),
    or NVDISASM, or the toolkit's."""
    if os.environ.get('NVDISASM'):
        return os.environ['NVDISASM']
    try:
        import importlib.util
        spec = importlib.util.find_spec('nvidia.cu13')
        for p in (spec.submodule_search_locations or []) if spec else []:
            cand = os.path.join(p, 'bin', 'nvdisasm')
            if os.access(cand, os.X_OK):
                return cand
    except Exception:
        pass
    cand = os.path.join(os.path.dirname(NVCC), 'nvdisasm')
    return cand if os.access(cand, os.X_OK) else None


NVDISASM = find_nvdisasm()
checks = []


class Check:
    def __init__(self, name):
        self.name = name
        self.fails = []
        self.count = 0
        checks.append(self)

    def ok(self, cond, msg):
        self.count += 1
        if not cond:
            self.fails.append(msg)
        return cond

    def eq(self, got, want, what):
        if got != want and isinstance(got, list) and isinstance(want, list) and len(got) + len(want) > 8:
            extra = [x for x in got if x not in want][:6]
            missing = [x for x in want if x not in got][:6]
            return self.ok(False, '%s: loader has %d (extra %r), oracle %d (missing %r)' %
                           (what, len(got), extra, len(want), missing))
        return self.ok(got == want, '%s: loader %r, oracle %r' % (what, got, want))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, errors='replace', **kw)


def sh(cmd, cwd=WORK):
    r = run(cmd, cwd=cwd)
    if r.returncode != 0:
        raise RuntimeError('%s failed:\n%s%s' % (' '.join(cmd), r.stdout, r.stderr))
    return r.stdout + r.stderr


# ------------------------------------------------------------------ the dump ----

def parse_dump(text):
    d = {'sections': [], 'syms': [], 'funcs': {}, 'kernels': {}, 'vars': {}, 'relocs': [],
         'global_attrs': [], 'edges': [], 'protos': []}
    cur = None
    func = None
    for line in text.splitlines():
        t = line.split()
        if not t:
            continue
        if cur is not None and line.startswith('  '):
            kernel_line(cur, t)
        elif func is not None and line.startswith('  '):
            if t[0] == 'attr':
                func['attrs'].append(parse_attr(t))
        elif line.startswith('cubin '):
            d['head'] = dict(zip(t[1::2], t[2::2]))
        elif t[0] == 'section':
            d['sections'].append({'idx': int(t[1]), 'name': '' if t[2] == '-' else t[2],
                                  'type': int(t[4], 16), 'flags': int(t[6], 16),
                                  'offset': int(t[8], 16), 'size': int(t[10], 16),
                                  'link': int(t[12]), 'info': int(t[14], 16), 'align': int(t[16])})
        elif t[0] == 'sym':
            d['syms'].append({'idx': int(t[1]), 'name': '' if t[2] == '-' else t[2], 'type': int(t[4]),
                              'bind': int(t[6]), 'other': int(t[8], 16), 'shndx': int(t[10]),
                              'value': int(t[12], 16), 'size': int(t[14], 16)})
        elif t[0] == 'func':
            func = {'name': t[1], 'sym': int(t[3]), 'section': int(t[5]), 'entry': int(t[7]),
                    'offset': int(t[11], 16), 'size': int(t[13], 16), 'own': int(t[15]), 'attrs': []}
            for k in range(16, len(t), 2):
                func[t[k]] = int(t[k + 1])
            d['funcs'][t[1]] = func
            cur = None
        elif t[0] == 'kernel':
            cur = {'name': t[1], 'params': [], 'externs': [], 'ibranches': [], 'local_funcs': {},
                   'attrs': [], 'text_relocs': [], 'cmem2_relocs': [], 'cmem2': b''}
            d['kernels'][t[1]] = cur
            func = None
        elif t[0] == 'var':
            d['vars'][t[1]] = {'sym': int(t[3]), 'kind': int(t[5]), 'section': int(t[7]),
                               'offset': int(t[9], 16), 'size': int(t[11], 16), 'managed': int(t[13]),
                               'bind': int(t[15]), 'init': None if t[17] == '-' else bytes.fromhex(t[17])}
            cur = func = None
        elif t[0] == 'module':
            d['module'] = {t[k]: int(t[k + 1], 16) for k in range(1, len(t), 2)}
        elif t[0] == 'reloc':
            d['relocs'].append(parse_reloc(t[2:], section=t[1]))
        elif t[0] == 'global_attr':
            d['global_attrs'].append(parse_attr(t))
        elif t[0] == 'edge':
            d['edges'].append((int(t[1]), t[2], t[3]))
        elif t[0] == 'proto':
            d['protos'].append((t[1], t[2]))
        elif t[0] == 'counts' and line.startswith('counts kernels'):
            d['counts'] = {t[k]: int(t[k + 1]) for k in range(1, len(t), 2)}
    return d


def parse_attr(t):
    return {'id': int(t[1], 16), 'name': t[2], 'fmt': int(t[4]), 'size': int(t[6]),
            'off': int(t[8], 16), 'value': b'' if t[10] == '-' else bytes.fromhex(t[10])}


def parse_reloc(t, section=None):
    # reloc OFF TYPE sym N NAME addend A rel|rela
    return {'section': section, 'offset': int(t[1], 16), 'type': t[2], 'sym': int(t[4]),
            'symname': '' if t[5] == '-' else t[5], 'addend': int(t[7]), 'rela': t[8] == 'rela'}


def kernel_line(k, t):
    key = t[0]
    if key == 'param':
        k['params'].append({'ordinal': int(t[1]), 'offset': int(t[3], 16), 'size': int(t[5], 16),
                            'index': int(t[7]), 'log_align': int(t[9]), 'space': int(t[11]),
                            'cbank': int(t[13], 16), 'smem': int(t[15]), 'v2': int(t[17])})
    elif key == 'extern':
        k['externs'].append(t[2])
    elif key == 'ibranch':
        k['ibranches'].append((int(t[1], 16), [int(x, 16) for x in t[5:]]))
    elif key == 'local_func':
        k['local_funcs'][int(t[3], 16)] = t[1]
    elif key == 'attr':
        k['attrs'].append(parse_attr(t))
    elif key == 'text_reloc':
        k['text_relocs'].append(parse_reloc(t))
    elif key == 'cmem2_reloc':
        k['cmem2_relocs'].append(parse_reloc(t))
    elif key == 'cmem2':
        k['cmem2'] = bytes.fromhex(t[1])
    elif key == 'counts':
        k['counts'] = {t[i]: int(t[i + 1]) for i in range(1, len(t), 2)}
    elif key in ('max_threads', 'reqntid'):
        k[key] = tuple(int(x) for x in t[1:4])
    elif key == 'cta_per_cluster':
        k[key] = tuple(int(x) for x in t[1:4])
        k.update({t[i]: int(t[i + 1]) for i in range(4, len(t), 2)})
    elif key == 'param_cbank':
        k['has_param_cbank'] = int(t[1])
        k['param_bank_sym'] = int(t[3])
        k['param_base'] = int(t[5], 16)
        k['param_bank_size'] = int(t[7], 16)
        k['param_size'] = int(t[9])
    elif key.endswith('_offsets') or key == 'coop_group_mask_regids':
        k[key] = [int(x, 16) for x in t[1:]]
    elif key in ('atom16_emul', 'unused_load', 'annotations'):
        k[key] = [tuple(int(y, 16) for y in x.split(':')) for x in t[1:]]
    else:
        for i in range(0, len(t) - 1, 2):
            try:
                k[t[i]] = int(t[i + 1], 0)
            except ValueError:
                pass


def dump(path):
    r = run([TOOL, 'dump', path])
    if r.returncode != 0:
        raise RuntimeError('cubin_tool dump %s: %s%s' % (path, r.stdout[-500:], r.stderr[-2000:]))
    return parse_dump(r.stdout)


# ------------------------------------------------------------------- readelf ----

TYPES = {'NULL': 0, 'PROGBITS': 1, 'SYMTAB': 2, 'STRTAB': 3, 'RELA': 4, 'NOTE': 7, 'NOBITS': 8, 'REL': 9}


def readelf_sections(path):
    out = run(['readelf', '-S', '-W', path]).stdout
    secs = {}
    rx = re.compile(r'^\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)\s+([0-9a-f]{16})\s+([0-9a-f]+)\s+([0-9a-f]+)\s+'
                    r'([0-9a-f]+)\s+([A-Za-z]*)\s+(\d+)\s+(\d+)\s+(\d+)\s*$')
    for line in out.splitlines():
        m = rx.match(line)
        if not m or m.group(1) == '0':
            continue
        ty = m.group(3)
        ty = 0x70000000 + int(ty[7:] or '0', 16) if ty.startswith('LOPROC') else TYPES.get(ty, -1)
        secs[int(m.group(1))] = {'name': m.group(2), 'type': ty, 'offset': int(m.group(5), 16),
                                 'size': int(m.group(6), 16), 'entsize': int(m.group(7), 16),
                                 'flags': m.group(8), 'link': int(m.group(9)), 'info': int(m.group(10)),
                                 'align': int(m.group(11))}
    return secs


def readelf_symbols(path):
    out = run(['readelf', '-s', '-W', path]).stdout
    syms = {}
    rx = re.compile(r'^\s*(\d+):\s+([0-9a-f]+)\s+(\d+)\s+(NOTYPE|OBJECT|FUNC|SECTION|FILE|<processor specific>: \d+)\s+'
                    r'(LOCAL|GLOBAL|WEAK)\s+(DEFAULT|INTERNAL|HIDDEN|PROTECTED)\s+(?:\[<other>: ([0-9a-f]+)\]\s+)?'
                    r'(\S+)\s?(.*)$')
    tmap = {'NOTYPE': 0, 'OBJECT': 1, 'FUNC': 2, 'SECTION': 3, 'FILE': 4}
    for line in out.splitlines():
        m = rx.match(line)
        if not m:
            continue
        ty = m.group(4)
        ty = tmap[ty] if ty in tmap else int(ty.split(':')[1])
        vis = ['DEFAULT', 'INTERNAL', 'HIDDEN', 'PROTECTED'].index(m.group(6))
        other = (int(m.group(7), 16) if m.group(7) else 0) | vis
        ndx = m.group(8)
        syms[int(m.group(1))] = {'value': int(m.group(2), 16), 'size': int(m.group(3)), 'type': ty,
                                 'bind': ['LOCAL', 'GLOBAL', 'WEAK'].index(m.group(5)), 'other': other,
                                 'shndx': 0 if ndx in ('UND', 'ABS', 'COM') else int(ndx),
                                 'name': m.group(9).strip()}
    return syms


def readelf_relocs(path):
    out = run(['readelf', '-r', '-W', path]).stdout
    rel = []
    sec = None
    for line in out.splitlines():
        m = re.match(r"^Relocation section '([^']+)'", line)
        if m:
            sec = m.group(1)
            continue
        m = re.match(r'^([0-9a-f]{16})\s+([0-9a-f]{16})\s+\S+(?: \S+)?\s+(.*)$', line)
        if not m or sec is None:
            continue
        info = int(m.group(2), 16)
        rest = m.group(3)
        addend = 0
        ma = re.search(r'\s([+-])\s*([0-9a-f]+)$', ' ' + rest)
        if sec.startswith('.rela') and ma:
            addend = int(ma.group(2), 16) * (-1 if ma.group(1) == '-' else 1)
        elif sec.startswith('.rela') and re.fullmatch(r'[0-9a-f]+', rest.strip()):
            addend = int(rest.strip(), 16)      # no symbol: readelf prints the addend alone
        rel.append({'relsec': sec, 'offset': int(m.group(1), 16), 'type': info & 0xffffffff,
                    'sym': info >> 32, 'addend': addend})
    return rel


# ----------------------------------------------------------------- ptxas -v ----

def parse_ptxas(log):
    funcs = {}
    module = {}
    cur = None
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = funcs.setdefault(m.group(1), {})
            continue
        m = re.search(r'Function properties for (\S+)', line)
        if m:
            cur = funcs.setdefault(m.group(1), {})
            continue
        m = re.search(r'(\d+) bytes stack frame', line)
        if m and cur is not None:
            cur['frame'] = int(m.group(1))
        m = re.search(r'Used (\d+) registers', line)
        if m and cur is not None:
            cur['regs'] = int(m.group(1))
            mb = re.search(r'used (\d+) barriers', line)
            cur['barriers'] = int(mb.group(1)) if mb else 0
            for mm in re.finditer(r'(\d+) bytes (smem|cmem\[(\d+)\]|cumulative stack size)', line):
                key = mm.group(2) if not mm.group(3) else 'cmem%s' % mm.group(3)
                cur[key] = int(mm.group(1))
        m = re.search(r'ptxas info\s+: (\d+) bytes gmem(.*)', line)
        if m:
            module['gmem'] = int(m.group(1))
            for mm in re.finditer(r'(\d+) bytes cmem\[(\d+)\]', m.group(2)):
                module['cmem%s' % mm.group(2)] = int(mm.group(1))
    return funcs, module


def ptx_params(ptx_path):
    """The project's PTX parser: entry -> (params [(offset, size)], total, maxntid, reqntid, maxnreg)."""
    out = subprocess.run([TOOL, 'ptxparams', ptx_path], capture_output=True, text=True, check=True).stdout
    ents = {}
    cur = None
    for line in out.splitlines():
        t = line.split()
        if t[0] == 'entry':
            cur = {'params': [], 'total': int(t[5]), 'maxntid': tuple(map(int, t[7:10])),
                   'reqntid': tuple(map(int, t[11:14])), 'maxnreg': int(t[15])}
            ents[t[1]] = cur
        elif t[0] == 'param':
            cur['params'].append((int(t[3]), int(t[5])))
    return ents


# ---------------------------------------------------------------- the checks ----

def check_elf(c, path, d):
    """sections, symbols, relocations against readelf"""
    secs = readelf_sections(path)
    mine = {s['idx']: s for s in d['sections']}
    c.eq(len(secs), len(mine) - 1, 'section count')
    flagbits = {'W': 1, 'A': 2, 'X': 4, 'I': 0x40}
    for i, s in secs.items():
        m = mine.get(i)
        if not c.ok(m is not None, 'section %d missing' % i):
            continue
        for key in ('name', 'type', 'offset', 'size', 'link', 'info', 'align'):
            c.eq(m[key], s[key], 'section %d %s' % (i, key))
        for ch, bit in flagbits.items():
            c.eq(bool(m['flags'] & bit), ch in s['flags'], 'section %d flag %s' % (i, ch))
    syms = readelf_symbols(path)
    c.eq(len(syms), len(d['syms']), 'symbol count')
    for s in d['syms']:
        r = syms.get(s['idx'])
        if not c.ok(r is not None, 'symbol %d missing in readelf' % s['idx']):
            continue
        for key in ('value', 'size', 'type', 'bind', 'other', 'shndx'):
            c.eq(s[key], r[key], 'symbol %d (%s) %s' % (s['idx'], s['name'], key))
        if r['type'] != 3:       # readelf prints no name for section symbols
            c.eq(s['name'], r['name'], 'symbol %d name' % s['idx'])
    rels = readelf_relocs(path)
    want = sorted((r['relsec'], r['offset'], r['type'], r['sym'], r['addend']) for r in rels)
    secname = {s['idx']: s['name'] for s in d['sections']}
    names = {}
    for r in d['relocs']:
        names[r['type']] = r['type']
    got = []
    relsec_of = {}
    for s in d['sections']:
        if s['type'] in (4, 9):
            relsec_of.setdefault((s['info'], s['type'] == 4), s['name'])
    for r in d['relocs']:
        tnum = reloc_num(r['type'])
        sidx = [s['idx'] for s in d['sections'] if s['name'] == r['section']][0]
        got.append((relsec_of[(sidx, r['rela'])], r['offset'], tnum, r['sym'], r['addend']))
    c.eq(sorted(got), want, 'relocations')
    return secs, syms


RELOC_NUM = {}


def reloc_num(name):
    return RELOC_NUM[name]


def load_names():
    out = subprocess.run([TOOL, 'names'], capture_output=True, text=True, check=True).stdout
    attrs, relocs, place = {}, {}, {}
    for line in out.splitlines():
        t = line.split()
        i = int(t[0], 16)
        if t[1] != '-':
            attrs[i] = t[1]
        if t[2] != '-':
            relocs[i] = t[2]
            RELOC_NUM[t[2]] = i
            place[i] = (int(t[3]), int(t[4]), int(t[5]))
    RELOC_NUM['?'] = -1
    return attrs, relocs, place


def sym_indices(d):
    by = {}
    for s in d['syms']:
        name = s['name']
        by.setdefault(name, set()).add(s['idx'])
    return by


def check_nvinfo(c, d, L):
    """every .nv.info record: boundaries, format/id bytes and value bytes equal to nvdisasm's
    listing (symbolic operands resolved); names equal where nvdisasm knows the id"""
    symidx = sym_indices(d)
    recs_by_sec = {}
    for k in d['kernels'].values():
        recs_by_sec['.nv.info.' + k['name']] = k['attrs']
    for f in d['funcs'].values():
        if f['attrs']:
            recs_by_sec['.nv.info.' + f['name']] = f['attrs']
    for sec, items in L.sections.items():
        if not sec.startswith('.nv.info.'):
            continue
        mine = recs_by_sec.get(sec)
        if not c.ok(mine is not None, '%s: not parsed' % sec):
            continue
        theirs = L.records[sec]
        c.eq(len(mine), len(theirs), '%s record count' % sec)
        for a, b in zip(mine, theirs):
            c.eq((a['off'], a['fmt'], a['id']), (b['offset'], b['format'], b['id']),
                 '%s record at 0x%x (offset, format, id)' % (sec, b['offset']))
            if b['name'] and b['name'].startswith('EIATTR_') and b['name'] != 'EIATTR_UNKNOWN':
                c.eq(a['name'], b['name'], '%s record 0x%x name' % (sec, b['id']))
            if b['format'] in (2, 3):
                v = a['value'][0] if b['format'] == 2 else struct.unpack('<H', a['value'])[0]
                c.eq(v, b['values'][0], '%s %s value' % (sec, b['name']))
            elif b['format'] == 4:
                base = a['off'] + 4
                for off, kind, ops in b['values']:
                    rel = off - base
                    if kind == 'byte':
                        want = [int(x, 16) for x in ops.split(',')]
                        c.eq(list(a['value'][rel:rel + len(want)]), want, '%s %s bytes at 0x%x' % (sec, b['name'], off))
                    elif kind == 'short':
                        c.eq(struct.unpack_from('<H', a['value'], rel)[0], L.resolve(ops),
                             '%s %s short at 0x%x' % (sec, b['name'], off))
                    elif kind == 'word':
                        got = struct.unpack_from('<I', a['value'], rel)[0]
                        want = L.resolve(ops)
                        if isinstance(want, tuple):
                            c.ok(got in symidx.get(want[1], set()),
                                 '%s %s word at 0x%x: symbol %d, nvdisasm names %s' % (sec, b['name'], off, got, want[1]))
                        else:
                            c.eq(got, want, '%s %s word at 0x%x' % (sec, b['name'], off))
    # the global .nv.info: per-function resources
    g = L.records.get('.nv.info', [])
    for r in g:
        if r['format'] != 4 or len(r['values']) != 2:
            continue
        symname = L.resolve(r['values'][0][2])
        val = L.resolve(r['values'][1][2])
        key = {0x2f: 'regcount', 0x11: 'frame_size', 0x12: 'min_stack_size', 0x23: 'max_stack_size'}.get(r['id'])
        if not key or not isinstance(symname, tuple):
            continue
        f = [f for f in d['funcs'].values() if f['name'] == symname[1]]
        if c.ok(len(f) >= 1, 'global .nv.info names %s, no such function' % symname[1]):
            c.eq(f[0].get(key), val, '%s %s' % (symname[1], key))


def check_callgraph(c, d, L):
    """.nv.callgraph groups and pairs against nvdisasm's listing of the section"""
    words = [ops for off, kind, ops, _ in L.sections.get('.nv.callgraph', []) if kind == 'word']
    want = []
    group = 1
    for i in range(0, len(words) - 1, 2):
        a, b = words[i], words[i + 1]
        if a == '0x00000000' and re.fullmatch(r'0x[0-9a-f]+', b) and int(b, 16) >= 0xfffffff0:
            group = 0xffffffff - int(b, 16) + 1
            continue
        caller = L.resolve(a)[1]
        if b.startswith('str_index@'):
            callee = b[len('str_index@('):-1]                   # the quoted string
        else:
            callee = L.resolve(b)[1]
        want.append((group, caller, callee))
    c.eq(d['edges'], want, '.nv.callgraph (group, caller, callee)')


def check_code_lists(c, d, L):
    """instruction-offset lists point at the instructions nvdisasm shows there"""
    for k in d['kernels'].values():
        sec = '.text.' + k['name']
        ins = L.insns.get(sec, {})
        c.ok(len(ins) > 0, '%s: nvdisasm shows no code' % sec)
        for off in k.get('exit_offsets', []):
            c.ok('EXIT' in ins.get(off, ''), '%s exit at 0x%x is %r' % (k['name'], off, ins.get(off)))
        for off in k.get('syscall_offsets', []):
            c.ok('CALL' in ins.get(off, ''), '%s syscall at 0x%x is %r' % (k['name'], off, ins.get(off)))
        for off in k.get('s2rctaid_offsets', []):
            c.ok('SR_CTAID' in ins.get(off, ''), '%s s2rctaid at 0x%x is %r' % (k['name'], off, ins.get(off)))
        for key in ('coop_group_offsets', 'int_warp_wide_offsets'):
            for off in k.get(key, []):
                c.ok(off in ins, '%s %s 0x%x is not an instruction' % (k['name'], key, off))
        for off, targets in k['ibranches']:
            text = ins.get(off, '')
            c.ok('BRX' in text, '%s ibranch at 0x%x is %r' % (k['name'], off, text))
        # BRANCH_TARGETS comments of nvdisasm name the same targets
        raw = L.raw_insns.get(sec, {})
        for off, targets in k['ibranches']:
            m = re.search(r'BRANCH_TARGETS ([^"]*)"', raw.get(off, ''))
            if c.ok(m is not None, '%s: nvdisasm shows no BRANCH_TARGETS at 0x%x' % (k['name'], off)):
                want = sorted(L.labels[x.strip()][1] for x in m.group(1).split(','))
                c.eq(sorted(targets), want, '%s BRX 0x%x targets' % (k['name'], off))


def check_ptxas(c, d, log, arch, L):
    funcs, module = parse_ptxas(log)
    for k in d['kernels'].values():
        p = funcs.get(k['name'])
        if not c.ok(p is not None, 'ptxas -v says nothing of %s' % k['name']):
            continue
        c.eq(k['regcount'], p['regs'], '%s registers' % k['name'])
        # SHI_REGISTERS: sh_info >> 24 of the code section, as nvdisasm prints it (sm_90: none)
        c.eq(k['shi_registers'], L.shi_registers.get('.text.' + k['name'], 0), '%s SHI_REGISTERS' % k['name'])
        # an entry's FRAME_SIZE is its whole stack, callees' frames included: ptxas's
        # "cumulative stack size" when it prints one, else the entry's own frame
        c.eq(k['frame_size'], p.get('cumulative stack size', p.get('frame', 0)), '%s stack' % k['name'])
        c.eq(k['min_stack_size'], p.get('cumulative stack size', p.get('frame', 0)), '%s min stack' % k['name'])
        c.eq(k['num_barriers'], p['barriers'], '%s barriers' % k['name'])
        c.eq(k['shared_static'], p.get('smem', 0), '%s smem' % k['name'])
        c.eq(k['shared_size'], k['shared_static'] + k['shared_base'], '%s shared window' % k['name'])
        if int(arch) < 90:
            c.eq(k['cmem0_size'], p.get('cmem0'), '%s cmem[0]' % k['name'])
            c.eq(k['cmem2_size'], p.get('cmem2', 0), '%s cmem[2]' % k['name'])
    # device functions (own sections in -rdc objects, $kernel$name clones in linked cubins;
    # on sm_90 a clone's FRAME_SIZE record repeats its kernel's, so only own-section ones)
    for f in d['funcs'].values():
        if f['entry'] or 'frame_size' not in f or (int(arch) >= 90 and not f['own']):
            continue
        name = f['name'].rsplit('$', 1)[-1]
        p = funcs.get(name)
        if p is not None and 'frame' in p:
            c.eq(f['frame_size'], p['frame'], '%s stack frame' % f['name'])
    if 'gmem' in module:
        m = d['module']
        c.eq(m['global_init_size'] + m['global_size'], module['gmem'], 'gmem')
        if int(arch) < 90:              # ptxas -v prints no cmem sizes for sm_90
            c.eq(m['const3_size'], module.get('cmem3', 0), 'cmem[3]')
            c.eq(m['const4_size'], module.get('cmem4', 0), 'cmem[4]')


def check_params(c, d, ptx, cbank0):
    for k in d['kernels'].values():
        e = ptx.get(k['name'])
        if not c.ok(e is not None, 'PTX has no entry %s' % k['name']):
            continue
        got = [(p['offset'], p['size']) for p in k['params']]
        c.eq(got, e['params'], '%s parameter (offset, size) list' % k['name'])
        c.eq([p['ordinal'] for p in k['params']], list(range(len(e['params']))), '%s ordinals' % k['name'])
        if e['params']:
            last = e['params'][-1][0] + e['params'][-1][1]
            c.eq(k['param_size'], last, '%s CBANK_PARAM_SIZE' % k['name'])
            c.eq((k['param_size'] + 7) & ~7, e['total'], '%s packed size' % k['name'])
            c.eq(k['param_bank_size'], k['param_size'], '%s PARAM_CBANK size' % k['name'])
            large = k['param_size'] > 0x1100
            c.eq(all(p['v2'] == large for p in k['params']), True, '%s KPARAM_INFO_V2 iff > 0x1100 bytes' % k['name'])
            c.eq(k['param_base'], cbank0['param_base_large' if large else 'param_base'], '%s parameter base' % k['name'])
            c.eq(k['cmem0_size'], k['param_base'] + k['param_size'], '%s cmem0 = base + params' % k['name'])
            # the bank symbol is the .nv.constant0.<kernel> section symbol
            s = d['syms'][k['param_bank_sym']]
            c.eq(d['sections'][s['shndx']]['name'], '.nv.constant0.' + k['name'], '%s PARAM_CBANK symbol' % k['name'])
        for p in k['params']:
            c.eq((p['index'], p['cbank'], p['smem']), (0, 0x1f, 0), '%s param %d index/cbank/space' % (k['name'], p['ordinal']))


def u64(b, off):
    return struct.unpack_from('<Q', b, off)[0]


def check_source_facts(c, d, arch, rdc=False):
    """what kall.cu says"""
    K = d['kernels']
    V = d['vars']
    kp = K.get('_Z8k_paramscsixfdPi1S2V4h')
    if kp:
        c.eq(kp['max_threads'], (128, 1, 1), 'k_params __launch_bounds__(128, 2)')
        c.eq(kp['shared_static'], 256, 'k_params static shared')
    if '_Z5k_big3BigPf' in K:
        c.eq(K['_Z5k_big3BigPf']['max_threads'], (256, 1, 1), 'k_big __launch_bounds__(256)')
        c.eq(K['_Z11k_dynsharedPfi']['max_threads'], (0, 0, 0), 'k_dynshared has no bounds')
        c.eq(K['_Z11k_gridconst3BigPf']['params'][0]['size'], 4096, '__grid_constant__ Big')
    c.eq(V['gv']['init'], struct.pack('<i', 5), 'gv = 5')
    c.eq(V['garr']['init'], struct.pack('<10i', 1, 2, 3, 0, 0, 0, 0, 0, 0, 0), 'garr initialiser')
    c.eq((V['mv']['managed'], V['mv']['init']), (1, struct.pack('<i', 42)), '__managed__ mv = 42')
    c.eq(V['ctab']['kind'], 2, 'ctab lives in bank 3')
    c.eq(V['ctab']['init'], struct.pack('<16f', 1, 2, 3, 4, *([0] * 12)), 'ctab initialiser')
    c.eq((V['cbig']['kind'], V['cbig']['size']), (2, 1200), 'cbig in bank 3')
    c.eq((V['gzero']['kind'], V['gzero']['init'], V['gzero']['size']), (1, None, 28), 'gzero zero-filled (.nv.global)')
    # gp = &garr[2]: R_CUDA_G64 against garr, addend 8 (RELA) or 8 stored in the slot (REL)
    gp = V['gp']
    r = [x for x in d['relocs'] if x['section'] == '.nv.global.init' and x['offset'] == gp['offset']]
    if c.ok(len(r) == 1, 'one relocation initialises gp'):
        r = r[0]
        c.eq((r['type'], r['symname']), ('R_CUDA_G64', 'garr'), 'gp relocation')
        c.eq(r['addend'] if r['rela'] else u64(gp['init'], 0), 8, 'gp addend (&garr[2])')
    if rdc:
        return
    ke = K['_Z9k_externsPii']
    c.eq(sorted(ke['externs']), sorted(['vprintf', 'malloc', 'free', '__assertfail']), 'k_externs EXTERNS')
    c.eq(len(ke.get('syscall_offsets', [])), 4, 'k_externs: four extern call sites')
    c4 = {x['symname'] for x in d['relocs'] if x['section'] == '.nv.constant4'}
    c.ok({'vprintf', 'malloc', 'free', '__assertfail', 'gv', 'gp', 'garr', 'vtab', 'mv', 'gzero'} <= c4,
         '.nv.constant4 slots name the externs and variables: %s' % sorted(c4))
    ks = K['_Z8k_switchPii']
    c.ok(len(ks['ibranches']) >= 1, 'k_switch has BRX jump tables')
    c.ok(ks['cmem2_size'] > 0, 'k_switch has .nv.constant2')
    c.eq(K['_Z6k_gridPi']['ctaidz_used'], int(int(arch) < 90), 'k_grid reads %ctaid.z (no CTAIDZ_USED on sm_90)')
    c.ok(len(K['_Z6k_gridPi'].get('coop_group_offsets', [])) > 0, 'k_grid grid-sync offsets')
    # function pointers: vtab's values and the vtables' slots are offsets into the calling
    # kernel's .nv.constant2, whose 64-bit entries hold the code offsets of that kernel's
    # clones (sm_75..89) or carry R_CUDA_UNIFIED relocations naming the function (sm_90)
    vt = V['vtab']['init']
    check_fnptr(c, d, ks, u64(vt, 0), '_Z2f1i')
    check_fnptr(c, d, ks, u64(vt, 8), '_Z2f2i')
    for kname in ('_Z6k_virtPii', '_Z7k_virt2Pii'):
        tb = V['_ZTV4Base']['init']
        for slot, fn in ((2, '_ZN4Base1fEi'), (3, '_ZN4BaseD1Ev'), (4, '_ZN4BaseD0Ev')):
            check_fnptr(c, d, K[kname], u64(tb, 8 * slot), fn)


def check_fnptr(c, d, k, slot, fname):
    rel = [r for r in k['cmem2_relocs'] if r['offset'] == slot]
    if rel:
        c.ok(rel[0]['symname'] in (fname, '$%s$%s' % (k['name'], fname)),
             '%s c2[0x%x] relocation names %s, expected %s' % (k['name'], slot, rel[0]['symname'], fname))
        return
    if not c.ok(slot + 8 <= len(k['cmem2']), '%s: pointer value 0x%x outside .nv.constant2' % (k['name'], slot)):
        return
    code = u64(k['cmem2'], slot)
    c.eq(k['local_funcs'].get(code), '$%s$%s' % (k['name'], fname), '%s c2[0x%x] -> code 0x%x' % (k['name'], slot, code))


def check_cbank0(c, arch, cbank0, L):
    """the driver-area offsets of cubin.c against what ptxas emits for each special register"""
    lay = cbank0
    pb = lay['param_base']
    want = {
        'ntid_x': {lay['ntid']}, 'ntid_y': {lay['ntid'] + 4}, 'ntid_z': {lay['ntid'] + 8},
        'nctaid_x': {lay['nctaid']}, 'nctaid_y': {lay['nctaid'] + 4}, 'nctaid_z': {lay['nctaid'] + 8},
        'dyn_smem': {lay['dynamic_smem_size']}, 'gridid64': {lay['gridid'], lay['gridid'] + 4},
        'env0': {lay['envreg']}, 'env3': {lay['envreg'] + 12}, 'env31': {lay['envreg'] + 124},
        'nsmid': {lay['nsmid']}, 'cvta_local': {lay['local_window'], lay['local_window'] + 4},
        'cvta_shared': {lay['shared_window'], lay['shared_window'] + 4} if lay['shared_window'] >= 0 else set(),
        'total_smem': {lay['reserved_smem']} if lay['reserved_smem'] >= 0 else set(),
    }
    if lay['aggr_smem'] >= 0:
        want['aggr_smem'] = {lay['aggr_smem']}
    for k, offs in want.items():
        sec = '.text.k_' + k
        if not c.ok(sec in L.insns, 'sm_%s: no kernel k_%s' % (arch, k)):
            continue
        seen = set()
        r1 = False
        desc = False
        for text in L.insns[sec].values():
            for m in re.finditer(r'c\[0x0\]\[(0x[0-9a-f]+|RZ)\]', text):
                v = 0 if m.group(1) == 'RZ' else int(m.group(1), 16)
                if v == lay['stack_init'] and 'R1' in text:
                    r1 = True
                elif v == lay['mem_desc'] and lay['mem_desc'] >= 0:
                    desc = True
                elif v < pb:
                    seen.add(v)
        # 64-bit values may be read whole (ULDC.64 at the base) or as two words
        base = min(offs) if offs else None
        c.ok(seen <= offs and (base is None or base in seen),
             'sm_%s k_%s reads c[0x0] at %s, the table says %s' % (arch, k, sorted(map(hex, seen)), sorted(map(hex, offs))))
        c.ok(r1, 'sm_%s k_%s: R1 not loaded from c[0x0][0x%x]' % (arch, k, lay['stack_init']))
        if lay['mem_desc'] >= 0 and k not in ('cvta_shared_none',):
            c.ok(desc, 'sm_%s k_%s: global store without the descriptor at 0x%x' % (arch, k, lay['mem_desc']))


DRIVER_REGS = {
    'ntid_x': '%ntid.x', 'ntid_y': '%ntid.y', 'ntid_z': '%ntid.z',
    'nctaid_x': '%nctaid.x', 'nctaid_y': '%nctaid.y', 'nctaid_z': '%nctaid.z',
    'nsmid': '%nsmid', 'gridid64': '%gridid', 'dyn_smem': '%dynamic_smem_size',
    'total_smem': '%total_smem_size', 'env0': '%envreg0', 'env3': '%envreg3', 'env31': '%envreg31',
}


def driver_ptx(arch):
    out = ['.version 8.5', '.target sm_%s' % arch, '.address_size 64']
    regs = dict(DRIVER_REGS)
    if int(arch) >= 90:
        regs['aggr_smem'] = '%aggr_smem_size'
    for k, r in regs.items():
        t = 'u64' if r == '%gridid' else 'u32'
        out.append('.visible .entry k_%s(.param .u64 p)\n{ .reg .u64 %%a; .reg .%s %%v; ld.param.u64 %%a,[p];'
                   ' mov.%s %%v,%s; st.global.%s [%%a],%%v; ret; }' % (k, t, t, r, t))
    out.append('.visible .entry k_cvta_shared(.param .u64 p, .param .u32 q)\n{ .reg .u64 %a,%b,%c; .reg .u32 %q;'
               ' .shared .align 4 .b8 sh[64]; ld.param.u64 %a,[p]; ld.param.u32 %q,[q]; cvt.u64.u32 %c,%q;'
               ' mov.u64 %b, sh; add.u64 %b,%b,%c; cvta.shared.u64 %b,%b; st.global.u64 [%a],%b; ret; }')
    out.append('.visible .entry k_cvta_local(.param .u64 p, .param .u32 q)\n{ .reg .u64 %a,%b,%c; .reg .u32 %q;'
               ' .local .align 4 .b8 lo[64]; ld.param.u64 %a,[p]; ld.param.u32 %q,[q]; cvt.u64.u32 %c,%q;'
               ' mov.u64 %b, lo; add.u64 %b,%b,%c; cvta.local.u64 %b,%b; st.global.u64 [%a],%b; ret; }')
    return '\n'.join(out) + '\n'


def patch_relocs(c, path, d, place, L0):
    """for each relocation type against code: write a known value through
    npu_cubin_reloc_patch, drop the relocation, and see nvdisasm print that value"""
    data = bytearray(open(path, 'rb').read())
    secs = {s['idx']: s for s in d['sections']}
    byname = {s['name']: s for s in d['sections']}
    done = {}
    for r in d['relocs']:
        tsec = byname[r['section']]
        if not (tsec['flags'] & 4):
            continue
        t = reloc_num(r['type'])
        if done.get(t, 0) >= 2 or not place.get(t, (0,))[0]:
            continue
        val, expect = {
            'R_CUDA_ABS32_LO_32': (0x9abcdef012345678, '0x12345678'),
            'R_CUDA_ABS32_HI_32': (0x9abcdef012345678, '0x9abcdef0'),
            'R_CUDA_ABS32_32': (0x12345678, '0x12345678'),
            'R_CUDA_ABS47_34': (0x123456789c, '0x123456789c'),
            'R_CUDA_ABS55_16_34': (0x123456789c, '0x123456789c'),
            'R_CUDA_ABS56_16_34': (0x12345678, '0x12345678'),
            'R_CUDA_ABS16_32': (0x1234, '0x1234'),
            'R_CUDA_ABS24_40': (0x123456, '0x123456'),
            'R_CUDA_CONST_FIELD21_38': (0x30120, 'c[0x3]['),
            'R_CUDA_YIELD_OPCODE9_0': (0x118, 'NOP'),
            'R_CUDA_YIELD_CLEAR_PRED4_87': (0, 'P0'),
        }.get(r['type'], (None, None))
        if val is None:
            c.ok(False, 'no expectation for %s' % r['type'])
            continue
        if r['type'] == 'R_CUDA_CONST_FIELD21_38':
            expect = 'c[0x3][' if 'R' not in L0.insns['.text.' + tsec['name'][6:]].get(r['offset'], '') else '0x120]'
        img = bytearray(data)
        base = tsec['offset'] + r['offset']
        out = subprocess.run([TOOL, 'patch', str(t), img[base:base + 16].hex(), str(val)],
                             capture_output=True, text=True).stdout.split()
        if not c.ok(len(out) == 2, 'patch %s: %s' % (r['type'], out)):
            continue
        img[base:base + 16] = bytes.fromhex(out[0])
        # drop the relocation: move the last entry of its section into its slot
        relsec = [s for s in d['sections'] if s['type'] in (4, 9) and s['info'] == tsec['idx'] and
                  (s['type'] == 4) == r['rela']][0]
        es = 24 if r['rela'] else 16
        n = relsec['size'] // es
        for j in range(n):
            o = relsec['offset'] + j * es
            off, info = struct.unpack_from('<QQ', img, o)
            if off == r['offset'] and (info & 0xffffffff) == t and (info >> 32) == r['sym']:
                last = relsec['offset'] + (n - 1) * es
                img[o:o + es] = img[last:last + es]
                shoff = struct.unpack_from('<Q', img, 0x28)[0]
                struct.pack_into('<Q', img, shoff + 64 * relsec['idx'] + 32, relsec['size'] - es)
                break
        tmp = os.path.join(WORK, 'patched.cubin')
        open(tmp, 'wb').write(img)
        L = nvdis.Listing(run([NVDISASM, tmp]).stdout)
        before = L0.insns.get(tsec['name'], {}).get(r['offset'], '')
        after = L.insns.get(tsec['name'], {}).get(r['offset'], '')
        c.ok(expect in after and (expect not in before or r['type'].startswith('R_CUDA_CONST')),
             '%s at %s+0x%x: wrote %#x, nvdisasm shows %r (was %r)' % (r['type'], tsec['name'], r['offset'], val, after, before))
        done[t] = done.get(t, 0) + 1
    return done


def main():
    os.makedirs(WORK, exist_ok=True)
    if not NVDISASM:
        print('FAIL nvdisasm-missing (pip install nvidia-cuda-nvdisasm; scripts/install-deps.sh does)')
        return 1
    attrnames, relocnames, place = load_names()
    for src in ('kall.cu', 'big.cu', 'rdc_b.cu', 'attrs.ptx', 'cdp.cu'):
        with open(os.path.join(HERE, src)) as f, open(os.path.join(WORK, src), 'w') as g:
            g.write(f.read())
    cbank0 = {}
    for a in ARCHS + ['87', '88']:
        out = run([TOOL, 'cbank0', a]).stdout
        cbank0[a] = {t.split()[0]: int(t.split()[1]) for t in out.splitlines()}

    # ---- kall.cu for every arch: ELF, .nv.info, code lists, ptxas, params, source facts
    sh([NVCC, '-ptx', '-arch=sm_80', 'kall.cu', '-o', 'kall.ptx'])
    ptx = ptx_params(os.path.join(WORK, 'kall.ptx'))
    for a in ARCHS:
        c = Check('kall_sm%s' % a)
        try:
            log = sh([NVCC, '-cubin', '-arch=sm_%s' % a, '-Xptxas', '-v', 'kall.cu', '-o', 'kall%s.cubin' % a])
            path = os.path.join(WORK, 'kall%s.cubin' % a)
            d = dump(path)
            c.eq(int(d['head']['sm']), int(a), 'sm from e_flags')
            c.eq(int(d['head']['type']), 2, 'ET_EXEC')
            check_elf(c, path, d)
            L = nvdis.Listing(run([NVDISASM, path]).stdout)
            check_nvinfo(c, d, L)
            check_callgraph(c, d, L)
            check_code_lists(c, d, L)
            check_ptxas(c, d, log, a, L)
            check_params(c, d, ptx, cbank0[a])
            check_source_facts(c, d, a)
            c.eq((d['counts']['unknown_attrs'], d['counts']['bad_attrs'], d['counts']['bad_offsets']), (0, 0, 0),
                 'unknown/bad attributes, bad offsets')
        except Exception as e:  # noqa: BLE001
            c.ok(False, 'exception: %r' % e)

    # ---- parameter blocks around 4 KB
    sh([NVCC, '-ptx', '-arch=sm_80', 'big.cu', '-o', 'big.ptx'])
    bptx = ptx_params(os.path.join(WORK, 'big.ptx'))
    for a in ('75', '86', '90'):
        c = Check('big_params_sm%s' % a)
        try:
            log = sh([NVCC, '-cubin', '-arch=sm_%s' % a, '-Xptxas', '-v', 'big.cu', '-o', 'big%s.cubin' % a])
            path = os.path.join(WORK, 'big%s.cubin' % a)
            d = dump(path)
            check_elf(c, path, d)
            L = nvdis.Listing(run([NVDISASM, path]).stdout)
            check_nvinfo(c, d, L)
            check_ptxas(c, d, log, a, L)
            check_params(c, d, bptx, cbank0[a])
            c.eq(sorted(k['param_size'] for k in d['kernels'].values()), [4088, 4096, 4352, 4356, 8200, 30412], 'block sizes')
        except Exception as e:  # noqa: BLE001
            c.ok(False, 'exception: %r' % e)

    # ---- PTX entry directives and pointer annotations (sm_90)
    c = Check('ptx_directives_sm90')
    try:
        sh([PTXAS, '-arch=sm_90', '-v', 'attrs.ptx', '-o', 'attrs.cubin'])
        path = os.path.join(WORK, 'attrs.cubin')
        d = dump(path)
        check_elf(c, path, d)
        L = nvdis.Listing(run([NVDISASM, path]).stdout)
        check_nvinfo(c, d, L)
        K = d['kernels']
        c.eq((K['k_req']['reqntid'], K['k_req']['maxreg_count']), ((64, 2, 1), 40), 'k_req .reqntid, .maxnreg')
        c.eq((K['k_max']['max_threads'], K['k_max']['maxreg_count']), ((256, 1, 1), 65536 // (256 * 4)),
             'k_max .maxntid 256 .minnctapersm 4 -> MAXREG_COUNT 64')
        c.eq(K['k_cluster']['cta_per_cluster'], (2, 1, 1), '.reqnctapercluster')
        c.eq(K['k_explicit']['explicit_cluster'], 1, '.explicitcluster')
        c.eq(K['k_rank']['max_cluster_rank'], 8, '.maxclusterrank')
    except Exception as e:  # noqa: BLE001
        c.ok(False, 'exception: %r' % e)

    # ---- .ptr annotations and over-aligned parameters (sm_80, sm_90)
    for a in ('80', '90'):
        c = Check('ptx_params_sm%s' % a)
        try:
            src = open(os.path.join(HERE, 'ptrs.ptx')).read().replace('sm_XX', 'sm_' + a)
            with open(os.path.join(WORK, 'ptrs%s.ptx' % a), 'w') as f:
                f.write(src)
            sh([PTXAS, '-arch=sm_%s' % a, 'ptrs%s.ptx' % a, '-o', 'ptrs%s.cubin' % a])
            path = os.path.join(WORK, 'ptrs%s.cubin' % a)
            d = dump(path)
            check_elf(c, path, d)
            check_nvinfo(c, d, nvdis.Listing(run([NVDISASM, path]).stdout))
            k = d['kernels']['k_ptrs']
            # state space codes: .local 1, .shared 2, .const 3 (sm_90: 4, as .global), .global 4,
            # generic 5; log2 of .align; 0/0 for a parameter that is not a .ptr
            codes = {'local': 1, 'shared': 2, 'const': 3 if a != '90' else 4, 'global': 4, '': 5}
            plist = re.search(r'k_ptrs\((.*?)\)\s*\{', src, re.S).group(1).split(',')
            end = 0
            for i, decl in enumerate(plist):
                m = re.search(r'\.ptr(?:\s+\.(local|shared|const|global))?(?:\s+\.align\s+(\d+))?', decl)
                space = codes[m.group(1) or ''] if m else 0
                align = int(m.group(2)) if m and m.group(2) else 1
                p = k['params'][i]
                c.eq((p['space'], 1 << p['log_align']), (space, align), 'param %d .ptr space/align' % i)
                # the parameter's own alignment applies to its address in bank 0, not to its
                # offset in the block: .align 64 lands where base + offset is a multiple of 64
                m2 = re.search(r'\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+[.\w\s]*?(\w+)(?:\[(\d+)\])?\s*$', decl.strip())
                palign = int(m2.group(1)) if m2.group(1) else {'u64': 8, 'u32': 4, 'b8': 1}[m2.group(2)]
                size = {'u64': 8, 'u32': 4, 'b8': 1}[m2.group(2)] * (int(m2.group(4)) if m2.group(4) else 1)
                want = -(-(k['param_base'] + end) // palign) * palign - k['param_base']
                c.eq((p['offset'], p['size']), (want, size), 'param %d offset/size (align %d, base 0x%x)' % (i, palign, k['param_base']))
                end = p['offset'] + p['size']
        except Exception as e:  # noqa: BLE001
            c.ok(False, 'exception: %r' % e)

    # ---- driver area of constant bank 0
    for a in ARCHS + ['87', '88']:
        c = Check('cbank0_sm%s' % a)
        try:
            with open(os.path.join(WORK, 'drv%s.ptx' % a), 'w') as f:
                f.write(driver_ptx(a))
            sh([PTXAS, '-arch=sm_%s' % a, 'drv%s.ptx' % a, '-o', 'drv%s.cubin' % a])
            L = nvdis.Listing(run([NVDISASM, os.path.join(WORK, 'drv%s.cubin' % a)]).stdout)
            check_cbank0(c, a, cbank0[a], L)
        except Exception as e:  # noqa: BLE001
            c.ok(False, 'exception: %r' % e)

    # ---- -rdc=true objects (ET_REL), nvlink'ed images, relocation field placement
    for a in ('75', '80', '90'):
        c = Check('rdc_sm%s' % a)
        try:
            sh([NVCC, '-cubin', '-rdc=true', '-arch=sm_%s' % a, '-Xptxas', '-v', 'kall.cu', '-o', 'ka%s.o.cubin' % a])
            sh([NVCC, '-cubin', '-rdc=true', '-arch=sm_%s' % a, 'rdc_b.cu', '-o', 'kb%s.o.cubin' % a])
            sh([NVLINK, '-arch=sm_%s' % a, 'ka%s.o.cubin' % a, 'kb%s.o.cubin' % a, '-o', 'kl%s.cubin' % a])
            for name, etype in (('ka%s.o.cubin' % a, 1), ('kb%s.o.cubin' % a, 1), ('kl%s.cubin' % a, 2)):
                path = os.path.join(WORK, name)
                d = dump(path)
                c.eq(int(d['head']['type']), etype, '%s ELF type' % name)
                check_elf(c, path, d)
                L = nvdis.Listing(run([NVDISASM, path]).stdout)
                check_nvinfo(c, d, L)
                check_callgraph(c, d, L)
                check_code_lists(c, d, L)
                if name.startswith('ka'):
                    check_source_facts(c, d, a, rdc=True)
                    c.ok(len(d['protos']) >= 4, '%s: .nv.prototype of the externs' % name)
                    f1 = d['funcs'].get('_Z2f1i')
                    c.ok(f1 is not None and f1['own'] == 1, '%s: f1 owns .text._Z2f1i' % name)
                if name.startswith('kl'):
                    krdc = d['kernels'].get('_Z5k_rdcPi')
                    if c.ok(krdc is not None, 'linked image has k_rdc'):
                        calls = [r for r in krdc['text_relocs'] if r['symname'] == '_Z2f1i']
                        c.ok(len(calls) == 1 and calls[0]['type'] in ('R_CUDA_ABS47_34', 'R_CUDA_ABS55_16_34'),
                             'k_rdc calls f1 through an absolute-call relocation: %s' % calls)
                        c.ok(any(r['symname'] == 'gv' for r in krdc['text_relocs']),
                             'k_rdc reads gv through a relocated address')
                done = patch_relocs(c, path, d, place, L)
                if name.startswith('ka'):
                    c.ok(len(done) >= 5, '%s: relocation types checked by patching: %s' %
                         (name, sorted(relocnames[t] for t in done)))
        except Exception as e:  # noqa: BLE001
            c.ok(False, 'exception: %r' % e)

    # ---- dynamic parallelism: CDP externs; nvlink with the device runtime library
    c = Check('cdp_sm80')
    try:
        sh([NVCC, '-cubin', '-rdc=true', '-arch=sm_80', 'cdp.cu', '-o', 'cdp.o.cubin'])
        lib = os.path.join(CUDA, 'lib64')
        sh([NVLINK, '-arch=sm_80', 'cdp.o.cubin', '-L' + lib, '-lcudadevrt', '-o', 'cdpl.cubin'])
        for name in ('cdp.o.cubin', 'cdpl.cubin'):
            path = os.path.join(WORK, name)
            d = dump(path)
            check_elf(c, path, d)
            L = nvdis.Listing(run([NVDISASM, path]).stdout)
            check_nvinfo(c, d, L)
            check_callgraph(c, d, L)
            check_code_lists(c, d, L)
            p = d['kernels'].get('_Z6parentPi')
            if c.ok(p is not None, '%s: no parent kernel' % name) and name.startswith('cdp.o'):
                c.ok({'__cudaCDP2GetParameterBufferV2', '__cudaCDP2LaunchDeviceV2', '_Z5childPi'} <= set(p['externs']),
                     'parent EXTERNS: %s' % p['externs'])
            c.ok(len(d['kernels']) >= 2, '%s: %d kernels' % (name, len(d['kernels'])))
    except Exception as e:  # noqa: BLE001
        c.ok(False, 'exception: %r' % e)

    # ---- attribute names: nvdisasm names every id of a synthetic .nv.info
    c = Check('attr_names')
    try:
        path = os.path.join(WORK, 'kall80.cubin')
        d = dump(path)
        sec = [s for s in d['sections'] if s['name'] == '.nv.info._Z8k_paramscsixfdPi1S2V4h'][0]
        per = sec['size'] // 4
        for start in range(0, 0x80, per):
            img = bytearray(open(path, 'rb').read())
            for i in range(per):
                struct.pack_into('<BBH', img, sec['offset'] + 4 * i, 3, (start + i) & 0xff, 0)
            tmp = os.path.join(WORK, 'names.cubin')
            open(tmp, 'wb').write(img)
            L = nvdis.Listing(run([NVDISASM, tmp]).stdout)
            for r in L.records.get(sec['name'], []):
                if r['name'] and r['name'].startswith('EIATTR_') and r['name'] != 'EIATTR_UNKNOWN':
                    c.eq(attrnames.get(r['id']), r['name'], 'name of attribute 0x%x' % r['id'])
        c.ok(c.count >= 90, 'nvdisasm named %d ids' % c.count)
    except Exception as e:  # noqa: BLE001
        c.ok(False, 'exception: %r' % e)

    # ---- fatbins: list, pick by CUDA's rule, decompress, parse
    for mode, flags in (('zstd', ['-Xfatbin', '-compress-all']), ('lz4', ['-Xfatbin', '-compress-all', '--compress-mode=speed']),
                        ('stored', ['--compress-mode=none'])):
        c = Check('fatbin_%s' % mode)
        try:
            gen = []
            for a in ('75', '80', '86'):
                gen += ['-gencode', 'arch=compute_%s,code=sm_%s' % (a, a)]
            gen += ['-gencode', 'arch=compute_90a,code=sm_90a', '-gencode', 'arch=compute_90,code=[sm_90,compute_90]']
            sh([NVCC, '-fatbin'] + gen + flags + ['big.cu', '-o', 'm_%s.fatbin' % mode])
            picks = {}
            for cc in ('75', '80', '86', '87', '89', '90', '70', '100', '120'):
                r = run([TOOL, 'fatbin', os.path.join(WORK, 'm_%s.fatbin' % mode), cc])
                lines = r.stdout.splitlines()
                c.eq(r.returncode, 0, 'fatbin listing/load/parse (cc %s): %s' % (cc, r.stdout[-300:]))
                cub = [dict(zip(x.split()[::2], x.split()[1::2])) for x in lines if x.startswith('cubin ')]
                c.eq([x['arch'] for x in cub], ['75', '80', '86', '90', '90'], 'listed archs')
                c.eq([x['a'] for x in cub], ['0', '0', '0', '1', '0'], 'arch-specific flags')
                c.ok(all(x['load'] == 'NPU_OK' and x['parse'] == 'NPU_OK' and x['sm'] == x['arch'] for x in cub),
                     'each cubin decompresses and parses with its sm')
                c.ok(all(x['compressed'] == ('0' if mode == 'stored' else '1') for x in cub), 'compression flag')
                idx = int(lines[-1].split()[2])
                picks[cc] = cub[idx]['arch'] + ('a' if cub[idx]['a'] == '1' else '') if idx >= 0 else None
            c.eq(picks, {'75': '75', '80': '80', '86': '86', '87': '86', '89': '86', '90': '90',
                         '70': None, '100': None, '120': None}, 'picks by compute capability')
        except Exception as e:  # noqa: BLE001
            c.ok(False, 'exception: %r' % e)
    c = Check('fatbin_arch_specific_only')
    try:
        sh([NVCC, '-fatbin', '-gencode', 'arch=compute_90a,code=sm_90a', 'big.cu', '-o', 'a.fatbin'])
        for cc, want in (('90', 0), ('89', -1), ('100', -1)):
            r = run([TOOL, 'fatbin', os.path.join(WORK, 'a.fatbin'), cc])
            c.eq(int(r.stdout.splitlines()[-1].split()[2]), want, 'sm_90a picked for cc %s' % cc)
    except Exception as e:  # noqa: BLE001
        c.ok(False, 'exception: %r' % e)

    # ---- PyTorch's cubins (optional)
    corpus = os.environ.get('TRANSFER_TO_NPU_CUBIN_CORPUS')
    if corpus and os.path.exists(corpus):
        c = Check('torch_corpus')
        r = run([TOOL, 'corpus', corpus, '75', '80'])
        print(r.stdout)
        m = re.search(r'parsed (\d+) failed (\d+)', r.stdout)
        c.ok(r.returncode == 0 and m and int(m.group(1)) > 0 and m.group(2) == '0', 'corpus: %s' % r.stdout[:400])
        c.ok('unknown_attrs 0 bad_attrs 0 bad_offsets 0' in r.stdout, 'no unknown/bad attributes or offsets')
    else:
        print('SKIP torch_corpus: set TRANSFER_TO_NPU_CUBIN_CORPUS=/path/to/torch/lib/libtorch_cuda.so '
              'to parse every sm_75/sm_80 cubin of a PyTorch wheel')

    bad = 0
    for c in checks:
        if c.fails:
            bad += 1
            print('FAIL %s (%d of %d assertions)' % (c.name, len(c.fails), c.count))
            for f in c.fails[:15]:
                print('    ' + f)
        else:
            print('PASS %s (%d assertions)' % (c.name, c.count))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
