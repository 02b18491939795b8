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
_INSN = re.compile(r'^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;?\s*(\(\*.*\*\))?\s*;?\s*$')
_LABEL = re.compile(r'^([.$\w]+):\s*$')
_REC = re.compile(r'//----- nvinfo : (\S+)')


def run(nvdisasm, path):
    return subprocess.run([nvdisasm, path], capture_output=True, text=True, check=True).stdout


class Listing:
    def __init__(self, text):
        self.sections = {}      # name -> list of (offset, kind, operand text)
        self.records = {}       # .nv.info section name -> list of records
        self.labels = {}        # label -> (section, offset)
        self.insns = {}         # text section -> {offset: instruction text}
        self.other = {}         # symbol -> st_other flags text
        sec = None
        pending = []            # labels waiting for the next offset
        recname = None
        for line in text.splitlines():
            m = _SEC.match(line)
            if m:
                sec = m.group(1)
                self.sections.setdefault(sec, [])
                pending = []
                continue
            if sec is None:
                continue
            m = re.match(r'^\s*\.other\s+([^,]+),@"(.*)"', line)
            if m:
                self.other[m.group(1)] = m.group(2)
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
                self.sections[sec].append((off, m.group(2), m.group(3), recname))
                recname = None
                continue
            m = _INSN.match(line)
            if m and sec.startswith('.text.'):
                off = int(m.group(1), 16)
                for lab in pending:
                    self.labels[lab] = (sec, off)
                pending = []
                self.insns.setdefault(sec, {})[off] = m.group(2)
        # labels at the very end of a section (after its last datum) are not needed
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
        m = re.match(r'^index@\((.*)\)$', operand)
        if m:
            return ('index', m.group(1))
        m = re.match(r'^([.$\w]+)@srel$', operand)
        if m:
            return self.labels[m.group(1)][1]
        return int(operand, 16)
