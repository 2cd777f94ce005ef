#!/usr/bin/env python3
"""A client of the approvals broker and lifecycle events, written from
sbx.proto alone (pbwire's hand encoding): an approver on one connection,
a run that never answers on another, a lifecycle subscriber, an output
mirror. Each scenario prints one line per fact it observed; the shell test
compares them.

Usage: brokerclient.py SOCKET WORKSPACE SCENARIO [ARGS...]"""
import socket
import sys

from pbwire import decode, field as ld, vfield as vi
from protoclient import (ACK, ERROR, EXIT, OUTPUT, RUN, RUN_STARTED, STDIN,
                         STDIN_CLOSE, SUBSCRIBE, Conn, env, first, run_body)

APPROVAL_REQUEST, APPROVAL_DECISION = 40, 41
APPROVAL_ANSWERED, EVENT = 100, 101
KIND_SESSIONS, KIND_APPROVALS = 1, 2
ANSWERS = {"once": 1, "session": 2, "deny": 3, "sandbox": 4, "always": 5}


class Named(Conn):
    """A connection whose Hello gives a client name of its own."""

    def __init__(self, path, name):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b""
        self.s.sendall(env(1, vi(1, 2) + ld(2, name.encode())))
        kind, _, _ = self.recv()
        assert kind == 2, kind


def say(fmt, *args):
    print(fmt % args, flush=True)


def s(d, num):
    return first(d, num, b"").decode()


def answered(body):
    a = decode(body)
    return ("answered req=%d by=%s mine=%d answer=%d file=%s rule=%s "
            "error=%s" % (first(a, 1), s(a, 4), first(a, 11), first(a, 3),
                          s(a, 8), s(a, 9), s(a, 10)))


def decision(c, rid, req, answer):
    c.send(APPROVAL_DECISION, vi(1, req) + vi(2, answer), rid)


def error_line(body):
    e = decode(body)
    return "error code=%d approval=%d" % (first(e, 1), first(e, 50))


def approver(sock, ws, name, answer):
    """Subscribes as approver, answers the first request, reports what it
    is told, then answers again (late) and answers an unknown id."""
    c = Named(sock, name)
    c.send(SUBSCRIBE, vi(50, 1), 5)
    kind, rid, _ = c.recv()
    assert (kind, rid) == (ACK, 5), (kind, rid)
    say("subscribed")
    req = None
    while True:
        kind, rid, body = c.recv()
        if kind is None:
            say("closed")
            return
        if kind == APPROVAL_REQUEST:
            a = decode(body)
            req = first(a, 1)
            say("asked %s:%d refused=%s", s(a, 3), first(a, 4), s(a, 50))
            decision(c, 5, req, ANSWERS[answer])
        elif kind == APPROVAL_ANSWERED:
            say("%s", answered(body))
            break
    decision(c, 5, req, 1)
    kind, rid, body = c.recv()
    say("late answer: id=%d %s", rid, error_line(body) if kind == ERROR
        else "kind=%d" % kind)
    decision(c, 5, 987654321, 1)
    kind, rid, body = c.recv()
    say("unknown id: id=%d %s", rid, error_line(body) if kind == ERROR
        else "kind=%d" % kind)


def silent_run(sock, ws, name, *argv):
    """Runs argv and never answers an approval request until another
    client has: then answers late, and goes on to the exit status."""
    c = Named(sock, name)
    c.send(RUN, run_body(ws, list(argv)), 1)
    out = b""
    while True:
        kind, rid, body = c.recv()
        if kind is None:
            say("closed")
            return
        if kind == APPROVAL_REQUEST:
            req = first(decode(body), 1)
            say("run asked")
        elif kind == APPROVAL_ANSWERED:
            say("run told: %s", answered(body))
            decision(c, 1, req, 3)
        elif kind == ERROR:
            say("run %s", error_line(body))
            if not first(decode(body), 50):
                return
        elif kind == OUTPUT:
            out += first(decode(body), 2, b"")
        elif kind == EXIT:
            say("run output=%s", out.decode().strip())
            say("run exit code=%d", first(decode(body), 3))
            return


def lifecycle(sock, ws, kinds):
    """Follows every session's lifecycle until one exits (or a sandbox's
    until one ends): prints the started and exited events (the exit's
    summary lines too), connections relayed for one, and sandboxes
    created and ended."""
    c = Named(sock, "watcher")
    body = b"".join(vi(51, int(k)) for k in kinds.split(","))
    c.send(SUBSCRIBE, body, 3)
    kind, rid, _ = c.recv()
    assert (kind, rid) == (ACK, 3), (kind, rid)
    say("subscribed")
    while True:
        kind, rid, body = c.recv()
        if kind != EVENT:
            say("kind=%s id=%s", kind, rid)
            continue
        ev = decode(body)
        if 10 in ev:
            st = decode(ev[10][0])
            say("started id=%d pid>0=%d argv=%s cwd=%s workspace=%s "
                "client=%s", rid, first(st, 2) > 0,
                " ".join(a.decode() for a in st.get(3, [])), s(st, 4),
                s(st, 5), s(st, 6))
        elif 11 in ev:
            es = decode(ev[11][0])
            say("exited id=%d code=%d", rid, first(es, 3))
            for line in es.get(50, []):
                say("summary %s", line.decode())
            return
        elif 65 in ev:
            fw = decode(ev[65][0])
            say("forwarded id=%d kind=%s rule=%s target=%s error=%s", rid,
                s(fw, 2), s(fw, 3), s(fw, 4), s(fw, 5))
        elif 12 in ev:
            say("approval asked id=%d", rid)
        elif 13 in ev:
            say("approval %s", answered(ev[13][0]))
        elif 15 in ev:
            sb = decode(ev[15][0])
            say("sandbox created id=%d sandbox=%d workspace=%s", rid,
                first(sb, 1), s(sb, 2))
        elif 16 in ev:
            end = decode(ev[16][0])
            sb = decode(end[1][0])
            say("sandbox ended id=%d sandbox=%d workspace=%s reason=%s",
                rid, first(sb, 1), s(sb, 2), s(end, 2))
            return


def mirror(sock, ws):
    """A run on one connection, a read-only mirror of its output on
    another, subscribed after it started."""
    r = Named(sock, "harness")
    r.send(RUN, run_body(ws, ["sh", "-c", "read x; echo out-$x; "
                              "echo err-$x >&2"]), 1)
    while True:
        kind, rid, body = r.recv()
        if kind == RUN_STARTED:
            sid = first(decode(body), 1)
            break
    m = Named(sock, "ide")
    m.send(SUBSCRIBE, vi(52, sid), 7)
    kind, rid, _ = m.recv()
    say("mirror subscribed: kind=%d id=%d", kind, rid)
    r.send(STDIN, ld(1, b"hi\n"), 1)
    r.send(STDIN_CLOSE, b"", 1)
    got = {1: b"", 2: b""}
    while b"out-hi" not in got[1] or b"err-hi" not in got[2]:
        kind, rid, body = m.recv()
        if kind == OUTPUT:
            o = decode(body)
            got[first(o, 1)] += first(o, 2, b"")
    say("mirror id=%d stdout=%s stderr=%s", rid, got[1].decode().strip(),
        got[2].decode().strip())
    m.send(STDIN, ld(1, b"x\n"), 7)
    kind, rid, body = m.recv()
    say("mirror stdin: kind=%s %s", kind, error_line(body)
        if kind == ERROR else "")


def summary(sock, ws, *argv):
    """The summary lines of a run's exit status, one a line."""
    c = Named(sock, "ide")
    c.send(RUN, run_body(ws, list(argv)), 1)
    while True:
        kind, rid, body = c.recv()
        if kind == EXIT:
            for line in decode(body).get(50, []):
                print(line.decode())
            return
        if kind == APPROVAL_REQUEST:
            decision(c, 1, first(decode(body), 1), 3)


def main():
    sock, ws, scenario = sys.argv[1:4]
    fn = {"approver": approver, "silent-run": silent_run,
          "lifecycle": lifecycle, "mirror": mirror,
          "summary": summary}[scenario]
    fn(sock, ws, *sys.argv[4:])


if __name__ == "__main__":
    main()
