#!/usr/bin/env python3
"""Clients whose runs wait for a credential's command, for the tests of
what such a wait may cost the daemon: many at once, and clients that
leave as their command starts. Each run has its own PATH, so that no two
share a command. Prints one line per fact it observed.

Usage: credhold.py SOCKET WORKSPACE SCENARIO [ARGS...]"""
import os
import select
import sys

from protoclient import ERROR, RUN, Conn, decode, first, run_body
from pbwire import field as ld

LOG = os.environ.get("SBXD_LOG", "")


def run(ws, i):
    return run_body(ws, ["true"]) + ld(2, b"PATH=/usr/bin:/bin:/nonexistent/%d"
                                       % i)


def waiting():
    with open(LOG, "rb") as f:
        return f.read().count(b"its run waits for the command")


def hold(sock, ws, n):
    """n clients, each with a run that waits (or is refused: said, with
    the error); then, once a line comes on stdin, they all leave."""
    conns, held = [], 0
    for i in range(int(n)):
        c = Conn(sock)
        conns.append(c)
        base = waiting()
        c.send(RUN, run(ws, i), 1)
        # Held (its wait logged) or answered (an error).
        while True:
            r, _, _ = select.select([c.s], [], [], 0.01)
            if r:
                kind, _, body = c.recv()
                if kind == ERROR:
                    print("refused %d: %s" % (i, first(decode(body), 2,
                                                       b"").decode()))
                else:
                    print("answered %d: %s" % (i, kind))
                break
            if waiting() > base:
                held += 1
                break
    print("held %d" % held)
    sys.stdout.flush()
    sys.stdin.readline()
    for c in conns:
        c.close()


def leave(sock, ws, n):
    """n clients, each leaving as soon as its run waits (its wait
    logged): the command has just been forked."""
    for i in range(int(n)):
        c = Conn(sock)
        base = waiting()
        c.send(RUN, run(ws, i), 1)
        while waiting() == base:
            r, _, _ = select.select([c.s], [], [], 0.0005)
            if r:
                break
        c.close()
    print("left %s" % n)


if __name__ == "__main__":
    globals()[sys.argv[3]](sys.argv[1], sys.argv[2], *sys.argv[4:])
