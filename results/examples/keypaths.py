#!/usr/bin/env python3
"""Exits 1, listing them, when a run written by the current code has key paths an example lacks, in the sections both
have: the examples then no longer show what a run holds (regenerate them: results/examples/regenerate).

    python3 results/examples/keypaths.py NEW_RUN.json EXAMPLE_RUN.json

Lists are read element by element into one set of paths ("cells[].latencyMs.p50Ms"). What trim.py drops on purpose
(the per-fork histograms, the histograms no chart draws) is not asked of the example, nor what a run writes only when
something happens to it on the machine (a fork that departed from its siblings, a measurement other processes
disturbed, a cell that failed, a fork JVM stopped as slow, an engine's bandwidth read above the machine's own roof, a
slope verdict the roofline contradicts, a cell whose forks disagree or whose memory grew, another run measuring beside it): an example made on a quiet machine cannot be made to show those, and a CI run that
met one would fail for the machine's noise, not for the code.
"""
import json
import sys

TRIMMED = {"cells[].forkHistogramsNs", "cells[].histogramNs", "serving.points[].histogramNs"}
EVENTS = {"cells[].departedForks", "cells[].forkRuns[].measurement.setAside", "cells[].error",
          "profile.calibrations[].machineRoof.disagreement", "forkJvms[].error", "profile.crossChecks[].answer",
          "cells[].unstable", "cells[].memoryGrowing", "config.besideAnotherRun"}


def paths(value, prefix, out):
    if isinstance(value, dict):
        for key, child in value.items():
            path = f"{prefix}.{key}" if prefix else key
            out.add(path)
            paths(child, path, out)
    elif isinstance(value, list):
        for child in value:
            paths(child, prefix + "[]", out)
    return out


new = json.load(open(sys.argv[1], encoding="utf-8"))
example = json.load(open(sys.argv[2], encoding="utf-8"))
shared = set(new) & set(example)
new_paths = {p for p in paths(new, "", set()) if p.split(".")[0].split("[")[0] in shared}
example_paths = paths(example, "", set())
missing = sorted(p for p in new_paths - example_paths
                 if not any(p == t or p.startswith(t + ".") or p.startswith(t + "[]") for t in TRIMMED | EVENTS))
if missing:
    print(f"{sys.argv[2]} lacks {len(missing)} key path(s) that a run writes today; regenerate the examples "
          f"(results/examples/regenerate):")
    for p in missing:
        print("  " + p)
    sys.exit(1)
print(f"OK: {sys.argv[2]} holds every key path of {sys.argv[1]} in the {len(shared)} sections both have")
