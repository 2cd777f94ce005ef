#!/usr/bin/env python3
"""A streaming-mode client that sends its run's input at the wrong time,
then asks for the session list on the same connection and prints what came
back before it: "exit=N" (the run's code, when there was a run), then
"error CODE MESSAGE" for each Error, then "open" or "closed" (did the
daemon keep the connection).

Usage: lateinput.py SOCKET WORKSPACE MODE
  at-exit    StdinClose in the same write as our reply to the exit status
             (the race: the session may or may not be gone yet)
  after-end  stdin data, StdinClose, a signal and a resize once the session
             is certainly gone (two round trips after its exit status: the
             daemon frees a session on the turn of its loop after that)
  no-run     StdinClose on a connection that never ran anything
  run-exit   Hello and a run of `touch WORKSPACE/marker`, then exit at
             once, the reply unread (a client killed while its run waits)"""
import os
import signal
import socket
import struct
import sys

from pbwire import decode, field as ld, frame, vfield as vi

HELLO = frame(ld(1, vi(1, 1) + ld(2, b"lateinput")))
LIST = frame(ld(18, b""))
STDIN_CLOSE = frame(ld(13, b""))
STDIN_DATA = frame(ld(12, ld(1, b"late\n")))
SIGNAL = frame(ld(15, vi(1, signal.SIGINT)))
RESIZE = frame(ld(16, ld(1, vi(1, 30) + vi(2, 100))))


class Conn:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.s.settimeout(60)
        self.data = b""

    def frame(self):
        """The next Envelope as {field: [values]}, or None at EOF."""
        while True:
            if len(self.data) >= 4:
                (n,) = struct.unpack(">I", self.data[:4])
                if len(self.data) >= 4 + n:
                    body = self.data[4:4 + n]
                    self.data = self.data[4 + n:]
                    return decode(body)
            try:
                chunk = self.s.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                return None
            self.data += chunk

    def until(self, num, errors):
        """Reads up to an Envelope with field num; Errors on the way are
        noted. None when the connection closed first."""
        while True:
            env = self.frame()
            if env is None:
                return None
            if 3 in env:
                err = decode(env[3][0])
                errors.append("error %d %s" % (
                    err.get(1, [0])[0],
                    err.get(2, [b""])[0].decode("utf-8", "replace")))
            if num in env:
                return env


def run_frame(ws, argv):
    run = b"".join(ld(1, a.encode()) for a in argv)
    run += ld(3, ws.encode()) + ld(4, ws.encode()) + vi(5, 2)
    return frame(ld(10, run))


def main():
    path, ws, mode = sys.argv[1:4]
    c = Conn(path)
    if mode == "run-exit":
        c.s.sendall(HELLO + run_frame(ws, ["touch", ws + "/marker"]))
        os.kill(os.getpid(), signal.SIGKILL)
    errors, out = [], []
    if mode == "no-run":
        c.s.sendall(HELLO + STDIN_CLOSE)
    else:
        c.s.sendall(HELLO + run_frame(ws, ["true"]))
        # The command's stdin stays open: only `true` ends the run.
        ex = c.until(17, errors)
        if ex is None:
            print(*errors, "closed", sep="\n")
            return
        es = decode(ex[17][0])
        out.append("exit=%d" % es.get(3, [0])[0])
        if mode == "at-exit":
            c.s.sendall(STDIN_CLOSE)
        else:
            for _ in range(2):
                c.s.sendall(LIST)
                c.until(19, errors)
            c.s.sendall(STDIN_DATA + STDIN_CLOSE + SIGNAL + RESIZE)
    try:
        c.s.sendall(LIST)
    except (BrokenPipeError, ConnectionResetError):
        pass
    done = c.until(19, errors)
    print(*out, *errors, "open" if done is not None else "closed", sep="\n")


if __name__ == "__main__":
    main()
