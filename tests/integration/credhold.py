#!/usr/bin/env python3
"""Clients whose runs wait for a credential's command, for the tests of
what such a wait may cost the daemon: many at once, and clients that
leave as their command starts. Each run has its own PATH, so that no two
share a command. Prints one line per fact it observed.

Usage: credhold.py SOCKET WORKSPACE SCENARIO [ARGS...]"""
import os
import select
import socket
import sys

from protoclient import RUN, Conn, env, run_body, until_exit
from pbwire import field as ld, vfield as vi

LOG = os.environ.get("SBXD_LOG", "")


def run(ws, i):
    return run_body(ws, ["true"]) + ld(2, b"PATH=/usr/bin:/bin:/nonexistent/%d"
                                       % i)


def burst(sock, ws, n, shared=""):
    """n clients (said hello first), then a run from each at once, each
    with a PATH of its own unless shared; prints how each ended, in the
    order of the clients."""
    conns = [Conn(sock) for _ in range(int(n))]
    for i, c in enumerate(conns):
        c.send(RUN, run(ws, 0 if shared else i), 1)
    for i, c in enumerate(conns):
        print("client %d: " % i, end="")
        until_exit(c, 1)
        c.close()


def again(sock, ws):
    """A run, then (once a line comes on stdin) another under the same
    request id on the same connection; how each ended."""
    c = Conn(sock)
    for _ in range(2):
        c.send(RUN, run_body(ws, ["true"]), 1)
        until_exit(c, 1)
        sys.stdout.flush()
        sys.stdin.readline()


def fds(sock, ws, how):
    """A run in fd-passing mode, its stdout and stderr one pipe's writing
    end (stdin /dev/null), ours closed once sent; how: "leave" once its
    run waits, or "stay" to its end. Prints what the pipe gave until
    its end: the end comes only once every copy the daemon held is
    closed."""
    r, w = os.pipe()
    null = os.open("/dev/null", os.O_RDONLY)
    c = Conn(sock)
    base = waiting()
    body = (ld(1, b"echo") + ld(1, b"out") + ld(3, ws.encode()) +
            ld(4, ws.encode()) + vi(5, 1) + vi(9, 3))
    socket.send_fds(c.s, [env(RUN, body, 1)], [null, w, w])
    os.close(w)
    os.close(null)
    if how == "leave":
        while waiting() == base:
            select.select([], [], [], 0.01)
        c.close()
    else:
        until_exit(c, 1, show=False)
    data = b""
    while True:
        ready, _, _ = select.select([r], [], [], 20)
        if not ready:
            print("no end of the pipe")
            return
        chunk = os.read(r, 4096)
        if not chunk:
            break
        data += chunk
    print("pipe gave %r, then its end" % data.decode())


def waiting():
    with open(LOG, "rb") as f:
        return f.read().count(b"its run waits for the command")


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
