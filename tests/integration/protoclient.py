#!/usr/bin/env python3
"""A client of protocol version 2 written from sbx.proto alone (no
generated code, pbwire's hand encoding), for the tests of request ids,
several operations per connection, attach, half-close and the run
defaults. Each scenario prints one line per fact it observed; the shell
test compares them.

Usage: protoclient.py SOCKET WORKSPACE SCENARIO [ARGS...]"""
import os
import select
import socket
import struct
import sys

from pbwire import decode, field as ld, frame, vfield as vi

HELLO, HELLO_REPLY, ERROR, ACK = 1, 2, 3, 4
RUN, RUN_STARTED, STDIN, STDIN_CLOSE, OUTPUT, SIGNAL = 10, 11, 12, 13, 14, 15
EXIT, LIST, SESSION_LIST, STATUS, STATUS_REPLY = 17, 18, 19, 21, 22
SUBSCRIBE, EXPLAIN, DESCRIBE, DESCRIBE_REPLY = 31, 52, 60, 61
ATTACH, ATTACHED, STDIN_CREDIT = 90, 91, 92
REQUEST_ID = 200
TIMEOUT = 30


def env(msg, body, rid=None):
    out = ld(msg, body)
    if rid is not None:
        out += vi(REQUEST_ID, rid)
    return frame(out)


def first(d, num, default=0):
    return d.get(num, [default])[0]


class Conn:
    def __init__(self, path, version=2):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b""
        self.s.sendall(env(HELLO, vi(1, version) + ld(2, b"protoclient")))
        kind, _, body = self.recv()
        if kind == ERROR and version > 1:
            # A daemon of version 1 only: what it does with the rest is
            # what the test then sees.
            self.__init__(path, version - 1)
            return
        assert kind == HELLO_REPLY, kind
        self.hello = decode(body)

    def send(self, msg, body, rid):
        self.s.sendall(env(msg, body, rid))

    def recv(self):
        """(message number, request id, body); (None, None, None) at EOF."""
        while True:
            if len(self.buf) >= 4:
                (n,) = struct.unpack(">I", self.buf[:4])
                if len(self.buf) >= 4 + n:
                    d = decode(self.buf[4:4 + n])
                    self.buf = self.buf[4 + n:]
                    rid = first(d, REQUEST_ID)
                    for k, v in d.items():
                        if k != REQUEST_ID:
                            return k, rid, v[0]
                    return 0, rid, b""
            r, _, _ = select.select([self.s], [], [], TIMEOUT)
            if not r:
                raise TimeoutError("no frame from sbxd")
            chunk = self.s.recv(65536)
            if not chunk:
                return None, None, None
            self.buf += chunk

    def close(self):
        self.s.close()


def frames(c):
    """The frames that come, until the daemon closes (said as "closed")."""
    while True:
        kind, rid, body = c.recv()
        if kind is None:
            print("closed")
            return
        yield kind, rid, body


def run_body(ws, argv, **kw):
    body = b"".join(ld(1, a.encode()) for a in argv)
    body += ld(3, ws.encode()) + ld(4, ws.encode()) + vi(5, 2)
    if kw.get("tty"):
        body += vi(6, 1)
    for name, num in (("timeout_ms", 8), ("umask", 11), ("keep", 40),
                      ("grace", 41), ("kill_grace", 42), ("umask_set", 43),
                      ("stdin_credit", 44), ("sandbox", 45)):
        if name in kw:
            body += vi(num, kw[name])
    return body


def until_exit(c, rid, out=None, show=True):
    """Reads frames until the ExitStatus of rid; prints the others'."""
    while True:
        kind, got, body = c.recv()
        if kind is None:
            print("closed")
            return None
        if got != rid:
            print("other id=%d kind=%d" % (got, kind))
            continue
        if kind == OUTPUT:
            if out is not None:
                out.append(first(decode(body), 2, b""))
        elif kind == EXIT:
            es = decode(body)
            if show:
                print("exit id=%d exited=%d code=%d signal=%d timed_out=%d"
                      % (got, first(es, 2), first(es, 3), first(es, 4),
                         first(es, 10)))
            return es
        elif kind == ERROR:
            e = decode(body)
            print("error id=%d code=%d %s" % (got, first(e, 1),
                                              first(e, 2, b"").decode()))
            return None


def wait_output(c, rid, want):
    """Reads frames of rid until its output holds want; returns the id
    of its session (from RunStarted, if it came)."""
    data, sid = b"", 0
    while want not in data:
        kind, got, body = c.recv()
        if kind is None:
            raise EOFError("closed before %r" % want)
        if kind == RUN_STARTED and got == rid:
            sid = first(decode(body), 1)
        elif kind == OUTPUT and got == rid:
            data += first(decode(body), 2, b"")
    return sid


def hello(sock, ws):
    c = Conn(sock)
    h = c.hello
    print("version %d" % first(h, 1))
    for f in h.get(40, []):
        print("feature %s" % f.decode())


def multiplex(sock, ws):
    """Two runs, a subscription, a session list, a describe and a bad
    explain in flight together on one connection, each reply under its
    own id."""
    c = Conn(sock)
    c.send(SUBSCRIBE, b"", 9)
    c.send(RUN, run_body(ws, ["sh", "-c", "read x; echo \"got $x\""]), 7)
    c.send(RUN, run_body(ws, ["echo", "second"]), 11)
    c.send(LIST, b"", 8)
    c.send(DESCRIBE, ld(1, ws.encode()), 10)
    c.send(EXPLAIN, ld(1, ws.encode()), 12)  # no target: INVALID
    c.send(STDIN, ld(1, b"hi\n"), 7)
    c.send(STDIN_CLOSE, b"", 7)
    outs, pending = {7: b"", 11: b""}, {7, 8, 9, 10, 11, 12}
    for kind, rid, body in frames(c):
        if kind == OUTPUT:
            outs[rid] += first(decode(body), 2, b"")
        elif kind == EXIT:
            print("exit id=%d code=%d output=%s" %
                  (rid, first(decode(body), 3), outs[rid].decode().strip()))
            pending.discard(rid)
        elif kind == SESSION_LIST:
            print("session_list id=%d" % rid)
            pending.discard(rid)
        elif kind == ACK:
            print("ack id=%d" % rid)
            pending.discard(rid)
        elif kind == DESCRIBE_REPLY:
            print("describe_reply id=%d" % rid)
            pending.discard(rid)
        elif kind == ERROR:
            print("error id=%d code=%d" % (rid, first(decode(body), 1)))
            pending.discard(rid)
        if not pending:
            break
    else:
        return
    # The bad explain ended its request only: the connection still works.
    c.send(STATUS, b"", 13)
    kind, rid, _ = c.recv()
    while rid == 9:  # the subscription's events
        kind, rid, _ = c.recv()
    print("after error: kind=%d id=%d" % (kind, rid))


def same_id(sock, ws):
    """A second run under an id still in flight ends the connection."""
    c = Conn(sock)
    c.send(RUN, run_body(ws, ["sh", "-c", "read x"]), 5)
    c.send(RUN, run_body(ws, ["true"]), 5)
    for kind, rid, body in frames(c):
        if kind == ERROR:
            print("error id=%d code=%d" % (rid, first(decode(body), 1)))


def keep(sock, ws, marker, *argv, grace=None, hold=False, sandbox=None):
    """Starts a kept run (in long-lived sandbox sandbox, if given),
    waits for marker in its output, prints the session id and the init's
    (or command's) host pid, and leaves without reading on (hold: once a
    line comes on our stdin)."""
    c = Conn(sock)
    kw = {"keep": 1}
    if sandbox is not None:
        kw["sandbox"] = int(sandbox)
    if grace is not None:
        kw["grace"] = int(grace)
    c.send(RUN, run_body(ws, list(argv), **kw), 3)
    data, sid, pid = b"", 0, 0
    while marker.encode() not in data or not sid:
        kind, rid, body = c.recv()
        if kind is None:
            print("closed")
            return
        if kind == RUN_STARTED:
            d = decode(body)
            sid, pid = first(d, 1), first(d, 2)
        elif kind == OUTPUT:
            data += first(decode(body), 2, b"")
        elif kind == ERROR:
            print("error %s" % first(decode(body), 2, b"").decode())
            return
    print("session %d pid %d" % (sid, pid))
    sys.stdout.flush()
    if hold:
        sys.stdin.readline()
    c.close()


def keep_grace(sock, ws, grace, marker, *argv):
    """keep with detach_grace_ms grace, held until a line on stdin."""
    keep(sock, ws, marker, *argv, grace=grace, hold=True)


def keep_sandbox(sock, ws, sandbox, marker, *argv):
    """keep, as a command of long-lived sandbox sandbox."""
    keep(sock, ws, marker, *argv, sandbox=sandbox)


def attach(sock, ws, sid, stdin=None):
    """Attaches to session sid: prints what Attached says, the replayed
    and live output, and the exit status, all under the attach's id."""
    c = Conn(sock)
    c.send(ATTACH, vi(1, int(sid)), 21)
    kind, rid, body = c.recv()
    if kind == ERROR:
        print("error id=%d code=%d" % (rid, first(decode(body), 1)))
        # The error ends the request, not the connection.
        c.send(STATUS, b"", 22)
        kind, rid, _ = c.recv()
        print("after error: kind=%d id=%d" % (kind, rid))
        return
    at = decode(body)
    info = decode(first(at, 1, b""))
    print("attached id=%d session=%d replayed=%d dropped=%d" %
          (rid, first(info, 1), first(at, 2), first(at, 3)))
    if stdin is not None:
        c.send(STDIN, ld(1, stdin.encode() + b"\n"), 21)
        c.send(STDIN_CLOSE, b"", 21)
    out = []
    until_exit(c, 21, out)
    print("output %s" % b"".join(out).decode().replace("\n", "|"))


def busy(sock, ws, sid):
    """Attach to a session another connection holds: BUSY, and ours
    stays open."""
    attach(sock, ws, sid)


def halfclose(sock, ws, size=None):
    """Hello, a run of cat, its input, then shutdown(SHUT_WR) as Node's
    socket.end() does: the input ends, the exit status still comes. With
    size: that many bytes to wc -c instead, without credit (more than the
    daemon queues before it stops reading)."""
    c = Conn(sock)
    if size is None:
        c.send(RUN, run_body(ws, ["sh", "-c", "cat; echo eof"]), 4)
        c.send(STDIN, ld(1, b"abc\n"), 4)
    else:
        c.send(RUN, run_body(ws, ["wc", "-c"]), 4)
        left = int(size)
        while left:
            n = min(left, 60000)
            c.send(STDIN, ld(1, b"y" * n), 4)
            left -= n
    c.s.shutdown(socket.SHUT_WR)
    out = []
    until_exit(c, 4, out)
    print("output %s" % b"".join(out).decode().replace("\n", "|"))
    kind, _, _ = c.recv()
    print("then %s" % ("closed" if kind is None else "frame %d" % kind))


def runwith(sock, ws, opts, *argv):
    """A run with RunRequest fields from opts ("umask=63,umask_set=1" or
    "-"); prints its output and exit status."""
    kw = {}
    if opts != "-":
        for kv in opts.split(","):
            k, v = kv.split("=")
            kw[k] = int(v)
    c = Conn(sock)
    c.send(RUN, run_body(ws, list(argv), **kw), 1)
    out = []
    until_exit(c, 1, out)
    print("output %s" % b"".join(out).decode().replace("\n", "|"))


def signal_session(sock, ws, marker, signo, target, *argv, tty=False):
    """A run; once marker is in its output, SendSignal(signo, target)."""
    c = Conn(sock)
    c.send(RUN, run_body(ws, list(argv), tty=tty), 2)
    wait_output(c, 2, marker.encode())
    c.send(SIGNAL, vi(1, int(signo)) + vi(40, int(target)), 2)
    out = []
    until_exit(c, 2, out)
    print("output %s" % b"".join(out).decode().replace("\n", "|"))


def credit(sock, ws):
    """Stdin by credit: a command that reads no stdin, all the credit the
    daemon gives sent to it, then a signal, which must get through."""
    c = Conn(sock)
    c.send(RUN, run_body(ws, ["sh", "-c", "trap 'echo int; exit 7' INT; "
                              "echo ready; while :; do sleep 0.05; done"],
                         stdin_credit=1), 6)
    got, ready = 0, False
    while not got or not ready:
        kind, rid, body = c.recv()
        if kind is None:
            print("closed")
            return
        if kind == STDIN_CREDIT:
            got += first(decode(body), 1)
        elif kind == OUTPUT and b"ready" in first(decode(body), 2, b""):
            ready = True
    print("credit %d" % got)
    left = got
    while left:
        n = min(left, 60000)
        c.send(STDIN, ld(1, b"x" * n), 6)
        left -= n
    c.send(SIGNAL, vi(1, 2), 6)
    out = []
    until_exit(c, 6, out)
    print("output %s" % b"".join(out).decode().replace("\n", "|"))


def signal_tty(sock, ws, marker, signo, target, *argv):
    """signal, the command on a pty (streaming)."""
    signal_session(sock, ws, marker, signo, target, *argv, tty=True)


SCENARIOS = {
    "hello": hello, "multiplex": multiplex, "same-id": same_id,
    "keep": keep, "keep-grace": keep_grace, "attach": attach,
    "keep-sandbox": keep_sandbox,
    "busy": busy, "halfclose": halfclose, "run": runwith,
    "signal": signal_session, "signal-tty": signal_tty, "credit": credit,
}

if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    try:
        SCENARIOS[sys.argv[3]](sys.argv[1], sys.argv[2], *sys.argv[4:])
    except (TimeoutError, EOFError, ConnectionError) as e:
        print("failed: %s" % e)
    sys.stdout.flush()
    os._exit(0)
