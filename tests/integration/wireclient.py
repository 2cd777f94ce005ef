#!/usr/bin/env python3
"""A streaming-mode client in the way an IDE extension is one: runs ARGV
in WORKSPACE over the protocol and prints, in arrival order, one line per
ViolationEvent ("violation session=N kind=... target=... ...") and then
"exit code=N violations=N". With --release FIFO it writes a line into FIFO
when the first violation arrives (the sandbox waits on it: proof that the
event came while the command was still running).

Usage: wireclient.py SOCKET WORKSPACE [--release FIFO] -- ARGV..."""
import socket
import struct
import sys

from pbwire import decode, field as ld, frame, vfield as vi


def text(d, num):
    return d.get(num, [b""])[0].decode("utf-8", "replace")


def frames(s):
    data = b""
    while True:
        while len(data) >= 4:
            (n,) = struct.unpack(">I", data[:4])
            if len(data) < 4 + n:
                break
            body, data = data[4:4 + n], data[4 + n:]
            yield decode(body)
        chunk = s.recv(65536)
        if not chunk:
            return
        data += chunk


EVENT_FIELDS = [(3, "kind"), (4, "target"), (5, "operation"), (6, "rule"),
                (7, "rule_id"), (8, "layer")]


def main():
    args = sys.argv[1:]
    sock, ws = args[0], args[1]
    release = args[args.index("--release") + 1] if "--release" in args \
        else None
    argv = args[args.index("--") + 1:]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    s.settimeout(60)
    run = b"".join(ld(1, a.encode()) for a in argv)
    run += ld(3, ws.encode()) + ld(4, ws.encode()) + vi(5, 2)
    s.sendall(frame(ld(1, vi(1, 1) + ld(2, b"wireclient"))) +
              frame(ld(10, run)))
    for env in frames(s):
        if 30 in env:
            ev = decode(env[30][0])
            line = "violation session=%d" % ev.get(1, [0])[0]
            for num, name in EVENT_FIELDS:
                line += " %s=%s" % (name, text(ev, num))
            print(line, flush=True)
            if release:
                with open(release, "w") as f:
                    f.write("go\n")
                release = None
        elif 17 in env:
            es = decode(env[17][0])
            print("exit code=%d violations=%d" %
                  (es.get(3, [0])[0], es.get(12, [0])[0]), flush=True)
            return
        elif 3 in env:
            print("error", text(decode(env[3][0]), 2), flush=True)
            return


if __name__ == "__main__":
    main()
