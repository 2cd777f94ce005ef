#!/usr/bin/env python3
"""Sits between one sbxctl and sbxd and makes the stdin-close race of
streaming mode happen every time: it holds the exit status back from the
client, says "held" on stdout once the daemon has certainly freed the
session (two ListSessions round trips of its own: the daemon frees a
session on the turn of its loop after the exit status), and when the
client's StdinClose has reached the daemon (one more round trip: whatever
the daemon says to it comes before that reply) hands the client the exit
status and that answer in one write, as a client that was slow to read
would find them. Its own round trips' replies are not passed on.

With --inject-error it adds the Error an unfixed daemon sends to a late
StdinClose itself: the client is tested alone.

Usage: holdexit.py DAEMON_SOCKET LISTEN_SOCKET [--inject-error]
Prints "listening" once clients may connect."""
import socket
import struct
import sys

from pbwire import decode, field as ld, frame, vfield as vi

LIST = frame(ld(18, b""))
LATE_ERROR = frame(ld(3, vi(1, 3) + ld(2, b"StdinClose without a running "
                                       b"session")))


class Side:
    def __init__(self, s):
        self.s = s
        self.data = b""

    def frame(self):
        """(raw frame bytes, Envelope) or None at EOF."""
        while True:
            if len(self.data) >= 4:
                (n,) = struct.unpack(">I", self.data[:4])
                if len(self.data) >= 4 + n:
                    raw = self.data[:4 + n]
                    self.data = self.data[4 + n:]
                    return raw, decode(raw[4:])
            try:
                chunk = self.s.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                return None
            self.data += chunk


def round_trip(d, held):
    """One ListSessions on the daemon side; what came before its reply is
    added to held. (A daemon that dropped us has said why: that is held.)"""
    try:
        d.s.sendall(LIST)
    except (BrokenPipeError, ConnectionResetError):
        pass
    while True:
        got = d.frame()
        if got is None or 19 in got[1]:
            return
        held.append(got[0])


def main():
    dpath, lpath = sys.argv[1], sys.argv[2]
    inject = "--inject-error" in sys.argv[3:]
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ls.bind(lpath)
    ls.listen(1)
    print("listening", flush=True)
    cs, _ = ls.accept()
    ds = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ds.connect(dpath)
    for s in (cs, ds):
        s.settimeout(60)
    c, d = Side(cs), Side(ds)
    # sbxctl writes Hello and its run, then nothing until its stdin ends.
    while True:
        raw, env = c.frame()
        d.s.sendall(raw)
        if 10 in env:
            break
    while True:
        raw, env = d.frame()
        if 17 in env:
            held = [raw]
            break
        c.s.sendall(raw)
    for _ in range(2):
        round_trip(d, held)
    print("held", flush=True)
    while True:
        got = c.frame()
        if got is None:
            print("client left", flush=True)
            return
        d.s.sendall(got[0])
        if 13 in got[1]:
            break
    round_trip(d, held)
    if inject:
        held.append(LATE_ERROR)
    c.s.sendall(b"".join(held))
    print("released", flush=True)


if __name__ == "__main__":
    main()
