#!/usr/bin/python3
"""hyperfine --export-json results as one markdown table, medians first.

  hf-median.py RESULT.json...          the table (rows in file order)
  hf-median.py --p50 RESULT.json NAME  the median of NAME, in ms
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


def main():
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
