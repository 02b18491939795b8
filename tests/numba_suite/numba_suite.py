#!/usr/bin/env python3
"""numba_suite.py [--known FILE] [--junit] NAME...

Runs numba-cuda's own test suite (it ships in the numba-cuda wheel: numba.cuda.tests) with
unittest, as `python -m numba.runtests` does, and prints one line per test:
    PASS id | FAIL id | SKIP id: reason | XFAIL id (reason)
A test fails when it or any of its subtests fails or errors. Tests listed in the known-failures
file (one "test-id-prefix  reason" per line, '#' comments) print XFAIL instead of FAIL, and
FAIL (XPASS: remove the entry) when they pass. NAME: dotted test names or prefixes
(numba.cuda.tests, numba.cuda.tests.cudadrv, ...). Ends with the counts.
"""
import argparse
import sys
import time
import unittest


class Result(unittest.TestResult):
    def __init__(self, known):
        super().__init__()
        self.known = known
        self.state = {}
        self.order = []
        self.t0 = {}

    def _set(self, test, st, why=""):
        tid = test.id()
        if tid not in self.state:
            self.order.append(tid)
        prev = self.state.get(tid, ("PASS", ""))
        if prev[0] == "FAIL":
            return
        self.state[tid] = (st, why)

    def startTest(self, test):
        super().startTest(test)
        self.t0[test.id()] = time.time()
        self._set(test, "PASS")

    def stopTest(self, test):
        super().stopTest(test)
        tid = test.id()
        st, why = self.state.get(tid, ("PASS", ""))
        reason = self.known_reason(tid)
        if st == "FAIL" and reason:
            line = "XFAIL %s (%s)" % (tid, reason)
        elif st == "PASS" and reason:
            line = "FAIL %s: XPASS, it passes now: remove it from the known failures" % tid
            self.state[tid] = ("XPASS", "")
        elif st == "SKIP":
            line = "SKIP %s: %s" % (tid, why)
        else:
            line = "%s %s%s" % (st, tid, (": " + why) if why else "")
        if not line.startswith("PASS"):
            line += "  [%.1f s]" % (time.time() - self.t0.get(tid, time.time()))
        print(line, flush=True)

    def known_reason(self, tid):
        for prefix, reason in self.known:
            if tid == prefix or tid.startswith(prefix + "."):
                return reason
        return None

    def addError(self, test, err):
        super().addError(test, err)
        self._set(test, "FAIL", self._exc_info_to_string(err, test).strip().splitlines()[-1][:300])

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set(test, "FAIL", self._exc_info_to_string(err, test).strip().splitlines()[-1][:300])

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._set(test, "FAIL", "subtest %s: %s" % (subtest._subDescription(),
                      self._exc_info_to_string(err, test).strip().splitlines()[-1][:200]))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._set(test, "SKIP", reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._set(test, "PASS", "expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._set(test, "FAIL", "unexpected success")


def read_known(path):
    out = []
    if not path:
        return out
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            parts = line.split(None, 1)
            out.append((parts[0], parts[1] if len(parts) > 1 else "known failure"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--known")
    ap.add_argument("names", nargs="+")
    a = ap.parse_args()
    # numba.cuda.testing needs these; a missing one is reported, not a crash of the tier
    import numba.cuda.testing  # noqa: F401
    suite = unittest.TestSuite()
    loader = unittest.TestLoader()
    for n in a.names:
        suite.addTests(loader.loadTestsFromName(n))
    res = Result(read_known(a.known))
    t0 = time.time()
    suite.run(res)
    counts = {}
    for st, _ in res.state.values():
        counts[st] = counts.get(st, 0) + 1
    n_x = sum(1 for tid, (st, _) in res.state.items() if st == "FAIL" and res.known_reason(tid))
    print("numba-cuda suite: %d tests in %.0f s: %d passed, %d failed (%d of them known, XFAIL), "
          "%d skipped, %d XPASS" % (len(res.state), time.time() - t0, counts.get("PASS", 0),
                                    counts.get("FAIL", 0), n_x, counts.get("SKIP", 0),
                                    counts.get("XPASS", 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
