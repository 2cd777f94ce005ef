#!/usr/bin/python3
"""hyperfine --export-json results as one markdown table, medians first.

  hf-median.py RESULT.json...          the table (rows in file order)
  hf-median.py --p50 RESULT.json NAME  the median of NAME, in ms
  hf-median.py --cpu RESULT.json       CPU per run (alternate.py's)
  hf-median.py --merge RESULT.json...  one row per command, the runs of
                                       every file together (rounds)
  hf-median.py --ratio TITLE RESULT.json...
                                       one markdown row: TITLE, the median
                                       of "bare", then each other
                                       command's with its ratio to bare
"""
import json
import statistics
import sys


def rows(paths):
    out = []
    for path in paths:
        with open(path) as f:
            out += json.load(f)["results"]
    return out


def merged(paths):
    out = {}
    for r in rows(paths):
        out.setdefault(r["command"], []).extend(r["times"])
    return out


def main():
    if sys.argv[1] == "--merge":
        print("| Command | p50 [ms] | Mean [ms] | Min [ms] | Max [ms] | Runs |")
        print("|:---|---:|---:|---:|---:|---:|")
        for c, t in merged(sys.argv[2:]).items():
            sd = statistics.stdev(t) if len(t) > 1 else 0.0
            print(f"| {c} | {statistics.median(t) * 1e3:.2f} "
                  f"| {statistics.mean(t) * 1e3:.2f} ± {sd * 1e3:.2f} "
                  f"| {min(t) * 1e3:.2f} | {max(t) * 1e3:.2f} | {len(t)} |")
        return
    if sys.argv[1] == "--ratio":
        p = {c: statistics.median(t) for c, t in merged(sys.argv[3:]).items()}
        b = p.pop("bare")
        cells = " | ".join(f"{v:.2f} s ({v / b:.2f}x)" for v in p.values())
        print(f"| {sys.argv[2]} | {b:.2f} s | {cells} |")
        return
    if sys.argv[1] == "--cpu":
        # alternate.py's CPU per run: the client's and the daemon's.
        print("| Command | client CPU [ms/run] | daemon CPU [ms/run] |")
        print("|:---|---:|---:|")
        for r in rows(sys.argv[2:]):
            d = r.get("daemon_cpu")
            print(f"| {r['command']} | {r['client_cpu'] * 1e3:.2f} "
                  f"| {'-' if d is None else f'{d * 1e3:.2f}'} |")
        return
    if sys.argv[1] == "--p50":
        r = next(r for r in rows([sys.argv[2]]) if r["command"] == sys.argv[3])
        print(f"{statistics.median(r['times']) * 1e3:.2f}")
        return
    print("| Command | p50 [ms] | Mean [ms] | Min [ms] | Max [ms] | Runs |")
    print("|:---|---:|---:|---:|---:|---:|")
    for r in rows(sys.argv[1:]):
        t = r["times"]
        sd = r["stddev"] or 0.0  # None with a single run
        print(f"| {r['command']} | {statistics.median(t) * 1e3:.2f} "
              f"| {r['mean'] * 1e3:.2f} ± {sd * 1e3:.2f} "
              f"| {r['min'] * 1e3:.2f} | {r['max'] * 1e3:.2f} | {len(t)} |")


if __name__ == "__main__":
    main()
