#!/usr/bin/env python3
"""Prints fields of the JSON sbxctl writes about violations, one per line:
vjson.py FILE PATH... where FILE holds a run's stderr (its last line is the
--json summary) or `sbxctl events --json` lines, and PATH is dotted
("groups.0.rule_id", "violations"). With "events" as the first PATH, FILE
is read as event lines and the rest apply to each ("events kind target").
With "groups" as the first PATH, one line per group of the summary: the
fields named after it, joined by "|"; "kind=K" or "kind!=K" among them
keeps only some groups."""
import json
import sys


def get(d, path):
    for part in path.split("."):
        d = d[int(part)] if isinstance(d, list) else d.get(part)
        if d is None:
            return ""
    if isinstance(d, bool):
        return "true" if d else "false"
    return d


def match(g, cond):
    if "!=" in cond:
        k, want = cond.split("!=", 1)
        return str(get(g, k)) != want
    k, want = cond.split("=", 1)
    return str(get(g, k)) == want


def main():
    name, paths = sys.argv[1], sys.argv[2:]
    lines = [l for l in open(name, encoding="utf-8").read().splitlines()
             if l.startswith("{")]
    if paths and paths[0] == "events":
        for line in lines:
            ev = json.loads(line)
            print(" ".join(str(get(ev, p)) for p in paths[1:]))
        return
    d = json.loads(lines[-1])
    if paths and paths[0] == "groups":
        keep = [p for p in paths[1:] if "=" in p]
        fields = [p for p in paths[1:] if "=" not in p]
        for g in d["groups"]:
            if all(match(g, k) for k in keep):
                print("|".join(str(get(g, f)) for f in fields))
        return
    for p in paths:
        print(get(d, p))


if __name__ == "__main__":
    main()
