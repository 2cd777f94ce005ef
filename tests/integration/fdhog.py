#!/usr/bin/env python3
"""A sandbox that takes all the proxy file descriptors it can: prints
"ready", reads a line ("go") on stdin, then opens CONNECT tunnels through HTTP_PROXY to HOST:PORT
(an HTTP server) one after another and fetches PATH through each, so that
each tunnel carries data both ways, and keeps every one open. It stops at
the first tunnel that does not work and prints

  held N refused: WHAT

where WHAT is the proxy's status line ("HTTP/1.1 503 ..."), "eof",
"reset", "timeout" (no answer within 3 s: a paused listener), an errno
name, or "limit" after MAX tunnels. Then it waits for a second line on
stdin and closes them all.

usage: fdhog.py HOST PORT PATH [MAX]"""
import errno
import os
import socket
import sys

from proxyprobe import PROXY


def recv_head(s):
    data = b""
    while b"\r\n\r\n" not in data:
        b = s.recv(4096)
        if not b:
            raise EOFError
        data += b
    return data


def fetch(s, host, port, path):
    """One request through the tunnel; the whole response read."""
    s.sendall(("GET %s HTTP/1.1\r\nHost: %s:%s\r\n\r\n" %
               (path, host, port)).encode())
    head = recv_head(s)
    hdr, _, body = head.partition(b"\r\n\r\n")
    n = 0
    for line in hdr.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":", 1)[1])
    while len(body) < n:
        b = s.recv(65536)
        if not b:
            raise EOFError
        body += b


def tunnel(host, port, path):
    """An open tunnel that has carried data, or what went wrong (str)."""
    s = socket.create_connection(PROXY, timeout=3)
    try:
        s.sendall(("CONNECT %s:%s HTTP/1.1\r\nHost: %s:%s\r\n\r\n" %
                   (host, port, host, port)).encode())
        head = recv_head(s)
        status = head.split(b"\r\n")[0].decode(errors="replace")
        if not status.startswith("HTTP/1.1 200"):
            s.close()
            return status
        fetch(s, host, port, path)
        return s
    except BaseException:
        s.close()
        raise


def main():
    host, port, path = sys.argv[1], sys.argv[2], sys.argv[3]
    most = int(sys.argv[4]) if len(sys.argv) > 4 else 100000
    held = []
    print("ready", flush=True)
    sys.stdin.readline()
    what = "limit"
    while len(held) < most:
        try:
            r = tunnel(host, port, path)
        except socket.timeout:
            r = "timeout"
        except EOFError:
            r = "eof"
        except ConnectionResetError:
            r = "reset"
        except OSError as e:
            r = errno.errorcode.get(e.errno, str(e))
        if isinstance(r, str):
            what = r
            break
        held.append(r)
    print("held %d refused: %s" % (len(held), what), flush=True)
    sys.stdin.readline()
    for s in held:
        s.close()
    os._exit(0)


if __name__ == "__main__":
    main()
