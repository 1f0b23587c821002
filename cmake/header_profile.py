#!/usr/bin/env python3
"""Which heavy headers the translation units of a build pull in, and through which of
gpbandit's own headers (docs/building.md, "Where the build time goes").

Usage: header_profile.py BUILD_DIR [PATH_REGEX]
BUILD_DIR must have been configured with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON. Each unit whose
source path matches PATH_REGEX (default: every unit) is preprocessed once with -H (no
compiling), which lists every header it opens, nested. Prints, for each heavy header family,
how many units include it, and the gpbandit headers that bring it in most often (the first
header of the tree on the path from the unit to the heavy header), and the preprocessed size
of the largest units."""
import json
import os
import re
import shlex
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

HEAVY = {
    "nlohmann/json": r"/nlohmann/json\.hpp$",
    "Eigen dense decompositions": r"/Eigen/(Cholesky|LU|QR|SVD|Eigenvalues|Dense)$",
    "Boost": r"/boost/",
    "pagmo": r"/pagmo/",
    "Ceres": r"/ceres/ceres\.h$",
    "GoogleTest + gMock": r"/(gtest/gtest|gmock/gmock)\.h$",
    "pybind11": r"/pybind11/pybind11\.h$",
}


def profile(entry, root):
    args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        out.append(a)
    run = subprocess.run(out + ["-E", "-H", "-o", "/dev/null"], cwd=entry["directory"],
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    chain = []  # the include stack: (depth, path)
    hits = {}
    lines = subprocess.run(out + ["-E", "-P"], cwd=entry["directory"], capture_output=True,
                           text=True).stdout.count("\n")
    for line in run.stderr.splitlines():
        m = re.match(r"^(\.+) (.*)$", line)
        if not m:
            continue
        depth, path = len(m.group(1)), os.path.normpath(m.group(2))
        chain = chain[: depth - 1] + [path]
        for family, pattern in HEAVY.items():
            if family in hits or not re.search(pattern, path):
                continue
            ours = [p for p in chain[:-1] if p.startswith(root)]
            hits[family] = os.path.relpath(ours[0], root) if ours else "(the unit itself)"
    return os.path.relpath(entry["file"], root), lines, hits


def main():
    build = sys.argv[1]
    regex = re.compile(sys.argv[2] if len(sys.argv) > 2 else ".")
    entries = json.load(open(os.path.join(build, "compile_commands.json")))
    root = os.path.dirname(os.path.abspath(os.path.join(os.path.dirname(__file__))))
    entries = [e for e in entries if regex.search(e["file"])]
    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as pool:
        results = list(pool.map(lambda e: profile(e, root), entries))
    print(f"{len(results)} units")
    for family in HEAVY:
        via = Counter(h[family] for _, _, h in results if family in h)
        if not via:
            continue
        top = ", ".join(f"{p} ({n})" for p, n in via.most_common(5))
        print(f"{family}: {sum(via.values())} units; through {top}")
    print("largest units (preprocessed lines):")
    for unit, lines, _ in sorted(results, key=lambda r: -r[1])[:10]:
        print(f"  {lines:8d} {unit}")


if __name__ == "__main__":
    main()
