#!/usr/bin/env python3
"""Host-side listeners for the escape tests: TCP and UDP on 127.0.0.1,
Unix stream and datagram sockets at paths and at abstract names. Once every
one is bound it writes "PORT_TCP PORT_UDP" and a newline to READY (a fifo the
test reads: no sleeps), then appends one line per connection or datagram
to LOG ("tcp", "udp BYTES", "unix-stream PATH", ...). An empty LOG at the
end says nothing reached the host. A UDP datagram SENTINEL is not logged
but answered: once a second one is, everything that reached the listener
before the first has been logged (hostlisten.py --settle PORT does that). Its pid doubles as the host process the
sandbox tries to signal and trace.

usage: hostlisten.py READY LOG UNIX_STREAM UNIX_DGRAM ABSTRACT_NAME
"""
import os
import selectors
import socket
import sys

SENTINEL = b"sbx-hostlisten-sentinel"

if sys.argv[1] == "--settle":
    c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for _ in range(2):
        c.sendto(SENTINEL, ("127.0.0.1", int(sys.argv[2])))
        c.recv(16)
    sys.exit(0)

ready, logpath, ustream, udgram, abstract = sys.argv[1:6]


def log(line):
    with open(logpath, "a") as f:
        f.write(line + "\n")


def bound(family, kind, addr):
    s = socket.socket(family, kind)
    s.bind(addr)
    if kind == socket.SOCK_STREAM:
        s.listen(16)
    return s


socks = {
    "tcp": bound(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", 0)),
    "udp": bound(socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", 0)),
    "unix-stream " + ustream: bound(socket.AF_UNIX, socket.SOCK_STREAM,
                                    ustream),
    "unix-dgram " + udgram: bound(socket.AF_UNIX, socket.SOCK_DGRAM, udgram),
    "abstract-stream @" + abstract: bound(socket.AF_UNIX, socket.SOCK_STREAM,
                                          "\0" + abstract),
    "abstract-dgram @" + abstract + "-d": bound(
        socket.AF_UNIX, socket.SOCK_DGRAM, "\0" + abstract + "-d"),
}
# Connectable by whoever runs the sandbox (the test user's sandboxes map to
# it; a root-run test's too).
os.chmod(ustream, 0o777)
os.chmod(udgram, 0o777)
sel = selectors.DefaultSelector()
for name, s in socks.items():
    sel.register(s, selectors.EVENT_READ, name)
with open(ready, "w") as f:
    f.write("%d %d\n" % (socks["tcp"].getsockname()[1],
                         socks["udp"].getsockname()[1]))
while True:
    for key, _ in sel.select():
        s = key.fileobj
        if s.type == socket.SOCK_STREAM:
            c, _ = s.accept()
            log(key.data)
            c.close()
        else:
            data, peer = s.recvfrom(65536)
            if data == SENTINEL and key.data == "udp":
                s.sendto(b"ok", peer)
                continue
            log("%s %d" % (key.data, len(data)))
