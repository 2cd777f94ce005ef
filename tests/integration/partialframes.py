#!/usr/bin/env python3
"""Clients that start a frame and never finish it: N connections to SOCKET
each send a header announcing a frame of the largest size and then PART
bytes of it. Prints "sent N refused R" (R: connections the daemon closed
while they sent), waits for a line on stdin, then waits up to WAIT seconds
for the daemon to close each one and prints "closed K of N" and the error
codes that came back ("codes 1:N ...").

usage: partialframes.py SOCKET N PART WAIT"""
import select
import socket
import struct
import sys
import time

FRAME_MAX = 1 << 20


def main():
    path, n, part, wait = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                           float(sys.argv[4]))
    conns, refused = [], 0
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(path)
        try:
            s.sendall(struct.pack(">I", FRAME_MAX) + b"\0" * part)
        except OSError:
            refused += 1
        conns.append(s)
    print("sent %d refused %d" % (n, refused), flush=True)
    sys.stdin.readline()
    deadline = time.monotonic() + wait
    open_ = {s.fileno(): s for s in conns}
    data = {fd: b"" for fd in open_}
    closed = 0
    while open_ and time.monotonic() < deadline:
        r, _, _ = select.select(list(open_), [], [],
                                max(0, deadline - time.monotonic()))
        for fd in r:
            try:
                b = open_[fd].recv(65536)
            except OSError:
                b = b""
            data[fd] += b
            if not b:
                del open_[fd]
                closed += 1
    codes = {}
    for d in data.values():
        # An Error reply: Envelope field 3 (error) holding field 1 (code).
        if len(d) > 8 and d[4] == 0x1a:
            code = d[7] if d[6] == 0x08 else -1
            codes[code] = codes.get(code, 0) + 1
    print("closed %d of %d codes %s" % (closed, n, " ".join(
        "%d:%d" % kv for kv in sorted(codes.items()))), flush=True)


if __name__ == "__main__":
    main()
