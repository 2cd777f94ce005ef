#!/usr/bin/python3
"""Times commands in alternation, one run of each per round (the order
flipped every round), so a busy machine's drift lands on all of them
alike; writes hyperfine's --export-json form for hf-median.py.

  alternate.py OUT.json RUNS WARMUP NAME::COMMAND...
"""
import json
import shlex
import statistics
import subprocess
import sys
import time


def main():
    out, runs, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    cmds = [(s.split("::", 1)[0], shlex.split(s.split("::", 1)[1]))
            for s in sys.argv[4:]]
    times = {name: [] for name, _ in cmds}
    for i in range(warmup + runs):
        order = cmds if i % 2 == 0 else cmds[::-1]
        for name, argv in order:
            t = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            if i >= warmup:
                times[name].append(time.perf_counter() - t)
    res = [{"command": name, "times": times[name],
            "mean": statistics.mean(times[name]),
            "stddev": statistics.stdev(times[name]) if runs > 1 else None,
            "min": min(times[name]), "max": max(times[name])}
           for name, _ in cmds]
    with open(out, "w") as f:
        json.dump({"results": res}, f)


main()
