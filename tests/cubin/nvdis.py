"""nvdis.py - reads NVIDIA nvdisasm's assembler listing of a cubin (the oracle of
check_cubin.py): the records of every .nv.info section (format byte, attribute id, the
values as nvdisasm prints them, symbolic operands resolved), the code labels of every text
section (label -> byte offset) and the instruction text at each offset.

nvdisasm prints one record as
    //----- nvinfo : EIATTR_NAME
    /*0000*/  .byte 0x04, 0x2f          format, attribute id
    /*0002*/  .short (.L_5 - .L_4)       SVAL: length as a label difference; HVAL: the value
    /*0004*/  .word index@(sym)          a symbol index operand
    /*0008*/  .word 0x00000040 | .word .L_x_3@srel (an instruction offset) | .short | .byte ...
Offsets in /*....*/ are bytes from the section start, so every value keeps its position.
"""
import re
import subprocess

_SEC = re.compile(r'^\s*\.section\s+([^,\s]+)')
_DATA = re.compile(r'^\s*/\*([0-9a-f]+)\*/\s+\.(byte|short|word|dword)\s+(.*?)\s*$')
_LABEL = re.compile(r'^([.$\w]+):\s*$')
_REC = re.compile(r'//----- nvinfo : (\S+)')


def run(nvdisasm, path):
    return subprocess.run([nvdisasm, path], capture_output=True, text=True, check=True).stdout


class Listing:
    def __init__(self, text):
        self.sections = {}      # name -> list of (offset, kind, operand text, record name)
        self.records = {}       # .nv.info section name -> list of records
        self.labels = {}        # label -> (section, offset)
        self.insns = {}         # text section -> {offset: instruction text}
        self.raw_insns = {}     # text section -> {offset: the whole line (with comments)}
        self.shi_registers = {} # text section -> SHI_REGISTERS of its .sectioninfo
        sec = None
        end = 0                 # offset just past the last datum of the current section
        pending = []            # labels waiting for the next offset
        recname = None
        for line in text.splitlines():
            m = _SEC.match(line)
            if m:
                for lab in pending:
                    self.labels[lab] = (sec, end)
                sec = m.group(1)
                self.sections.setdefault(sec, [])
                pending = []
                end = 0
                continue
            if sec is None:
                continue
            m = re.match(r'^\s*\.sectioninfo\s+@"SHI_REGISTERS=(\d+)"', line)
            if m:
                self.shi_registers[sec] = int(m.group(1))
                continue
            m = _REC.search(line)
            if m:
                recname = m.group(1)
                continue
            m = _LABEL.match(line.strip())
            if m and not line.strip().startswith('/*'):
                pending.append(m.group(1))
                continue
            m = _DATA.match(line)
            if m:
                off = int(m.group(1), 16)
                for lab in pending:
                    self.labels[lab] = (sec, off)
                pending = []
                kind, ops = m.group(2), m.group(3)
                self.sections[sec].append((off, kind, ops, recname))
                end = off + {'short': 2, 'word': 4, 'dword': 8}.get(kind, len(ops.split(',')))
                recname = None
                continue
            m = re.match(r'^\s*/\*([0-9a-f]+)\*/\s+(.*)$', line)
            if m and sec.startswith('.text.'):
                off = int(m.group(1), 16)
                for lab in pending:
                    self.labels[lab] = (sec, off)
                pending = []
                raw = m.group(2)
                self.raw_insns.setdefault(sec, {})[off] = raw
                self.insns.setdefault(sec, {})[off] = re.split(r'\s*(?:;|\(\*)', raw, 1)[0].strip()
                end = off + 16
        for lab in pending:
            self.labels[lab] = (sec, end)
        for name, items in self.sections.items():
            if name == '.nv.info' or name.startswith('.nv.info.'):
                self.records[name] = self._records(items)

    def _records(self, items):
        """Groups the data lines of one .nv.info section into records: a record starts at a
        `.byte fmt, id` line whose two bytes are a format 1-4 and an id, at a 4-aligned
        offset, following the previous record's extent."""
        recs = []
        i = 0
        while i < len(items):
            off, kind, ops, name = items[i]
            assert kind == 'byte', (off, kind, ops)
            b = [int(x, 16) for x in ops.split(',')]
            fmt, aid = b[0], b[1]
            rec = {'offset': off, 'name': name, 'format': fmt, 'id': aid, 'values': []}
            i += 1
            if fmt == 1:                       # NVAL: nothing follows
                pass
            elif fmt == 2:                     # BVAL: one byte
                o2, k2, ops2, _ = items[i]
                rec['values'] = [int(ops2.split(',')[0], 16)]
                i += 1
            elif fmt == 3:                     # HVAL: one halfword
                o2, k2, ops2, _ = items[i]
                rec['values'] = [int(ops2, 16)]
                i += 1
            else:                              # SVAL: length, then data up to the next record
                i += 1                         # the .short length line
                while i < len(items) and items[i][3] is None:
                    o2, k2, ops2, _ = items[i]
                    rec['values'].append((o2, k2, ops2))
                    i += 1
            recs.append(rec)
        return recs

    def resolve(self, operand):
        """A value operand as a number: hex literal, `.L_x_N@srel` (offset of a code label in
        its section) or ('index', sym) for `index@(sym)`."""
        operand = operand.strip()
        m = re.match(r'^\(([.$\w]+) - ([.$\w]+)\)$', operand)
        if m:
            return self.labels[m.group(1)][1] - self.labels[m.group(2)][1]
        m = re.match(r'^index@\((.*)\)$', operand)
        if m:
            return ('index', m.group(1))
        m = re.match(r'^([.$\w]+)@srel$', operand)
        if m:
            return self.labels[m.group(1)][1]
        return int(operand, 16)
