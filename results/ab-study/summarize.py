"""Summarises the A/B study's runs (results/ab-study/run) into summary.json and summary.md: per kind of run, how many
runs had a cell slower, faster, a regression or unresolved, the p50 intervals' widths, the pairs and the minutes; and
the two-run compare's verdicts on the same builds."""
import json, os, statistics, sys

log, out = sys.argv[1], sys.argv[2]
kinds = {}
two = {}
for line in open(log, encoding="utf-8"):
    mode, kind, index, rc, seconds, where = line.rstrip("\n").split("\t")
    rc, seconds = int(rc), int(seconds)
    if mode == "ab":
        entry = {"index": int(index), "exitCode": rc, "seconds": seconds, "run": where}
        ab_file = os.path.join(where, "ab.json")
        if os.path.exists(ab_file):
            ab = json.load(open(ab_file, encoding="utf-8"))
            cells = ab["cells"]
            verdicts = [c["p50"]["verdict"] if c.get("p50") else "none" for c in cells]
            p99 = [c["p99"]["verdict"] if c.get("p99") else "none" for c in cells]
            entry.update({
                "regressed": ab["regressed"],
                "p50Verdicts": verdicts,
                "p99Verdicts": p99,
                "anySlowerOrFaster": any(v in ("slower", "faster") for v in verdicts + p99),
                "anyP50Slower": any(v == "slower" for v in verdicts),
                "allP50Slower": all(v == "slower" for v in verdicts),
                "p50SlowerCells": sum(v == "slower" for v in verdicts),
                "cells": len(verdicts),
                "p50Changes": [c["p50"]["changePercent"] for c in cells if c.get("p50")],
                "p50HalfWidths": [c["p50"]["detectablePercent"] for c in cells if c.get("p50") and c["p50"].get("detectablePercent") is not None],
                "pairs": [c["pairs"] for c in cells],
                "stops": [c.get("stop") for c in cells],
            })
        kinds.setdefault(kind, []).append(entry)
    else:
        entry = {"index": int(index), "exitCode": rc, "seconds": seconds}
        cj = os.path.join(where, "compare.json")
        if os.path.exists(cj):
            c = json.load(open(cj, encoding="utf-8"))
            entry.update({"regressed": c["regressed"], "verdicts": [r["verdict"] for r in c["rows"]],
                          "p50Changes": [r["p50"].get("changePercent") for r in c["rows"]],
                          "p50HalfWidths": [(r["p50"]["ciHighPercent"] - r["p50"]["ciLowPercent"]) / 2
                                            for r in c["rows"] if r["p50"].get("ciLowPercent") is not None]})
        two.setdefault(kind, []).append(entry)

def median(xs):
    return statistics.median(xs) if xs else None

summary = {"ab": {}, "twoRun": {}}
lines = ["# The A/B gate, measured", "", "| runs | n | any cell slower/faster | p50 slower (any cell) | p50 slower (every cell) | regression | "
         "p50 slower, cells | p50 half-width, median [min, max] | pairs, median | minutes, median [max] |", "|---|---|---|---|---|---|---|---|---|---|"]
for kind, runs in kinds.items():
    done = [r for r in runs if "p50Verdicts" in r]
    widths = [w for r in done for w in r["p50HalfWidths"]]
    s = {
        "runs": len(runs),
        "anySlowerOrFaster": sum(r["anySlowerOrFaster"] for r in done),
        "anyP50Slower": sum(r["anyP50Slower"] for r in done),
        "allP50Slower": sum(r["allP50Slower"] for r in done),
        "p50SlowerCells": sum(r["p50SlowerCells"] for r in done), "cells": sum(r["cells"] for r in done),
        "regressed": sum(r["regressed"] for r in done),
        "p50HalfWidthMedian": median(widths), "p50HalfWidthMin": min(widths) if widths else None,
        "p50HalfWidthMax": max(widths) if widths else None,
        "pairsMedian": median([p for r in done for p in r["pairs"]]),
        "minutesMedian": median([r["seconds"] / 60 for r in runs]), "minutesMax": max(r["seconds"] / 60 for r in runs),
        "runsDetail": runs,
    }
    summary["ab"][kind] = s
    fmt = lambda x: "-" if x is None else f"{x:.1f}"
    lines.append(f"| A/B {kind} | {len(runs)} | {s['anySlowerOrFaster']} | {s['anyP50Slower']} | {s['allP50Slower']} | {s['regressed']} | "
                 f"{s['p50SlowerCells']} of {s['cells']} | {fmt(s['p50HalfWidthMedian'])}% [{fmt(s['p50HalfWidthMin'])}, {fmt(s['p50HalfWidthMax'])}] | {fmt(s['pairsMedian'])} | "
                 f"{fmt(s['minutesMedian'])} [{fmt(s['minutesMax'])}] |")
for kind, runs in two.items():
    done = [r for r in runs if "verdicts" in r]
    widths = [w for r in done for w in r["p50HalfWidths"]]
    s = {"pairs": len(runs), "regressed": sum(r["regressed"] for r in done),
         "anyChange": sum(any(v in ("regressed", "improved") for v in r["verdicts"]) for r in done),
         "p50HalfWidthMedian": median(widths), "minutesMedian": median([r["seconds"] / 60 for r in runs]), "runsDetail": runs}
    summary["twoRun"][kind] = s
    fmt = lambda x: "-" if x is None else f"{x:.1f}"
    lines.append(f"| two runs {kind} | {len(runs)} | {s['anyChange']} (improved or regressed) | - | - | {s['regressed']} | - | "
                 f"{fmt(s['p50HalfWidthMedian'])}% | - | {fmt(s['minutesMedian'])} (both runs and compare) |")
json.dump(summary, open(os.path.join(out, "summary.json"), "w", encoding="utf-8"), indent=2)
open(os.path.join(out, "summary.md"), "w", encoding="utf-8").write("\n".join(lines) + "\n")
