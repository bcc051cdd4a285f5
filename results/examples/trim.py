#!/usr/bin/env python3
"""Copies a run folder into results/examples/NAME, trimmed to what analyze needs.

Kept: run.json without the per-fork histograms, the load points' histograms and the histograms of cells that no chart
draws (analyze's distribution chart draws each sequence length's largest batch), and the PNG plots. Dropped: the SVG plots, the raw fork
output, the profiler traces, console.log and jmh.json. Every percentile, verdict, profile, serving and workload figure
stays as the run wrote it.

    python3 results/examples/trim.py RUN_FOLDER NAME
"""
import json
import pathlib
import shutil
import sys

src, name = pathlib.Path(sys.argv[1]), sys.argv[2]
dest = pathlib.Path(__file__).resolve().parent / name
if dest.exists():
    shutil.rmtree(dest)
(dest / "plots").mkdir(parents=True)
run = json.loads((src / "run.json").read_text(encoding="utf-8"))
largest = {}
for c in run["cells"]:
    key = (c["backend"], c["device"], c["model"], c["seqLen"])
    largest[key] = max(largest.get(key, 0), c["batch"])
for c in run["cells"]:
    c.pop("forkHistogramsNs", None)
    if c["batch"] != largest[(c["backend"], c["device"], c["model"], c["seqLen"])]:
        c.pop("histogramNs", None)
for point in (run.get("serving") or {}).get("points", []):
    point.pop("histogramNs", None)  # every load point's percentiles and stages stay; analyze recomputes no serving
(dest / "run.json").write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
for png in sorted((src / "plots").glob("*.png")):
    shutil.copy(png, dest / "plots" / png.name)
print(f"{dest}: run.json {(dest / 'run.json').stat().st_size // 1024} KB, {len(list((dest / 'plots').iterdir()))} plots")
