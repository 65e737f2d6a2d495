#!/usr/bin/env python3
"""check_links.py must pass a page whose links resolve and fail, naming the
link, on a missing file, a link out of the repository, a missing anchor and
a README over its line limit. Fixtures in fixtures/<case>/."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_links.py")


def run(case, *extra):
    p = subprocess.run([sys.executable, CHECKER, *extra, os.path.join(HERE, "fixtures", case)],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


failures = []


def expect(case, extra, code, *needles):
    rc, out = run(case, *extra)
    missing = [n for n in needles if n not in out]
    if rc != code or missing:
        failures.append(f"{case} {' '.join(extra)}: exit {rc} (want {code}), missing {missing} in:\n{out}")


expect("good", [], 0, "0 problem(s)")
expect("good", ["--readme-limit", "3"], 1, "README.md: 9 lines, more than 3")
expect("broken-link", [], 1, "README.md:3: broken link 'docs/missing.md': no such file",
       "'../../../../outside.md': leads outside the repository")
expect("broken-anchor", [], 1, "broken link 'docs/page.md#nope': no heading with anchor #nope")
for f in failures:
    print(f)
print(f"{4 - len(failures)} of 4 cases as expected")
sys.exit(1 if failures else 0)
