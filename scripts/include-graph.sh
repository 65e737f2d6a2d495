#!/usr/bin/env bash
# The include graph between the source's layers, and the includes that go
# against their order. Run from the repository root, no arguments:
#
#     scripts/include-graph.sh
#
# It reads the `#include "..."` lines of the sources (.cpp .hpp .h .cu .cuh
# .c) under core/, cpu/, kernels/, gst/, tools/, pipelines/ and tests/,
# resolves each included path as the build does (beside the including file
# first, then from the repository root, core/include, core/src, the test
# folders and gst/), and prints how many includes go from each layer to each
# other one. The layers, from the bottom (docs/layers.md says why):
#
#     core/include  the public API; includes only itself
#     core/shared   rules of every backend; core/include
#     core/codec    the codestream's model; core/shared, core/include
#     cpu, kernels  the backends; the three above, never each other
#     core/src      dispatch and codec planning; everything above
#     gst           the plugin; core/include only
#
# tools/, pipelines/ and tests/ may include anything. A generated header
# (cf_config.h, in the build folder) counts as the layer "build", which any
# layer may include. An include it cannot find in the tree is listed apart.
#
# Exit status: 1 when an include of core/, cpu/, kernels/ or gst/ goes
# against the order, else 0.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os
import re
import sys

SCANNED = ["core", "cpu", "kernels", "gst", "tools", "pipelines", "tests"]
EXTENSIONS = (".cpp", ".hpp", ".h", ".cu", ".cuh", ".c")
# Where a quoted include is looked for after the including file's folder:
# the -I folders of the meson targets, in the library's order first.
SEARCH = ["", "core/include", "core/src", "tests/support", "tests/cuda", "tests/cuda/emulation", "tests/gst", "gst"]
GENERATED = {"cf_config.h"}

ORDER = ["core/include", "core/shared", "core/codec", "cpu", "kernels", "core/src", "gst",
         "tools", "pipelines", "tests", "build"]
BELOW_BACKENDS = {"core/include", "core/shared", "core/codec"}
ALLOWED = {
    "core/include": {"core/include"},
    "core/shared": {"core/include", "core/shared"},
    "core/codec": {"core/include", "core/shared", "core/codec"},
    "cpu": BELOW_BACKENDS | {"cpu"},
    "kernels": BELOW_BACKENDS | {"kernels"},
    "core/src": BELOW_BACKENDS | {"cpu", "kernels", "core/src"},
    "gst": {"core/include", "gst"},
}
CHECKED = set(ALLOWED)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    parts = path.split("/")
    if parts[0] == "core":
        return "core/" + parts[1] if len(parts) > 2 else "core"
    return parts[0]


def resolve(including, name):
    for folder in [os.path.dirname(including)] + SEARCH:
        candidate = os.path.normpath(os.path.join(folder, name))
        if os.path.isfile(candidate):
            return candidate
    return None


def sources():
    for top in SCANNED:
        for folder, dirs, files in os.walk(top):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(folder, name)


counts = {}
against = []
unresolved = []
for path in sources():
    source_layer = layer_of(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            name = match.group(1)
            target = resolve(path, name)
            if target is None:
                if os.path.basename(name) in GENERATED:
                    target_layer = "build"
                else:
                    unresolved.append(f"{path}:{number}: {name}")
                    continue
            else:
                target_layer = layer_of(target)
            counts[(source_layer, target_layer)] = counts.get((source_layer, target_layer), 0) + 1
            if (source_layer in CHECKED and target_layer != "build"
                    and target_layer not in ALLOWED[source_layer]):
                against.append(f"{path}:{number}: {source_layer} -> {target_layer} ({target or name})")


def rank(layer):
    return ORDER.index(layer) if layer in ORDER else len(ORDER)


print("| from | to | includes | |")
print("|---|---|---:|---|")
for (source_layer, target_layer), count in sorted(counts.items(),
                                                   key=lambda e: (rank(e[0][0]), rank(e[0][1]), e[0])):
    wrong = (source_layer in CHECKED and target_layer != "build"
             and target_layer not in ALLOWED[source_layer])
    mark = "against the order" if wrong else ""
    print(f"| {source_layer} | {target_layer} | {count} | {mark} |")
print()
print(f"Includes against the order: {len(against)}")
for line in against:
    print("  " + line)
if unresolved:
    print()
    print(f"Includes not found in the tree: {len(unresolved)}")
    for line in unresolved:
        print("  " + line)
sys.exit(1 if against else 0)
PY
