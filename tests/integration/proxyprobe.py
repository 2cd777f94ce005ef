#!/usr/bin/env python3
"""Speaks to the sandbox's proxy listeners byte by byte, for what curl will
not send (odd host spellings, mismatched names, refused SOCKS commands).
Prints one result line.

  http REQUEST                 raw request to HTTP_PROXY (\\r\\n escapes);
                               prints the status line and the body
  connect-tls HOST PORT SNI    CONNECT, then a TLS handshake naming SNI;
                               prints "ok", or "closed" if the proxy ended it
  tunnel HOST PORT DATA        CONNECT, send DATA (escapes), end our side,
                               read to the end; prints "done N" (N bytes back)
  tunnel-tls HOST PORT HOW SNI MARK
                               CONNECT, then a real ClientHello naming SNI
                               ("-": none) sent HOW (plain, alert or ccs:
                               that record first, split: over two
                               records), then MARK in an application data
                               record; prints "done N" as tunnel does
  socks CMD ATYP HOST PORT     SOCKS5 request (CMD 1/2/3; ATYP 1/3/4);
                               prints "rep N"
  parallel N URL               N connections send GET URL before any answer
                               is read; prints "sent N", then each status
  tunnels N HOST PORT          N CONNECT tunnels open at once, then a few
                               bytes down each; prints "open N sent M",
                               holds them until a line arrives on stdin,
                               then ends them and waits for the far ends
  stall SECONDS                half a request head, then silence; prints
                               "closed after S" (or "open" at SECONDS)
"""
import os
import socket
import ssl
import struct
import sys
import time

from netserver import read_head as recv_head


def proxy_addr(var, default):
    """The proxy the sandbox was given: 127.0.0.1 at 3128 and 1080 in a
    network namespace, ports of the session's own on the host's loopback
    without one."""
    url = os.environ.get(var, "")
    hostport = url.split("://", 1)[-1].rstrip("/")
    if ":" not in hostport:
        return default
    host, port = hostport.rsplit(":", 1)
    return (host, int(port))


PROXY = proxy_addr("HTTP_PROXY", ("127.0.0.1", 3128))
SOCKS = proxy_addr("ALL_PROXY", ("127.0.0.1", 1080))


def http(req):
    s = socket.create_connection(PROXY)
    s.sendall(req.encode().decode("unicode_escape").encode("latin1"))
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    head, _, body = data.partition(b"\r\n\r\n")
    print(head.split(b"\r\n")[0].decode(), body.decode(errors="replace").strip())


def connect_tls(host, port, sni):
    s = socket.create_connection(PROXY)
    s.sendall(("CONNECT %s:%s HTTP/1.1\r\nHost: %s:%s\r\n\r\n" %
               (host, port, host, port)).encode())
    head = recv_head(s)
    if not head.startswith(b"HTTP/1.1 200"):
        print("refused", head.split(b"\r\n")[0].decode())
        return
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    try:
        t = ctx.wrap_socket(s, server_hostname=sni)
        t.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        print("ok", t.recv(4096).split(b"\r\n\r\n", 1)[-1].decode().strip())
    except (OSError, ssl.SSLError):
        print("closed")


def tunnel(host, port, data):
    send_tunnel(host, port,
                data.encode().decode("unicode_escape").encode("latin1"))


def tls_record(ctype, payload):
    return struct.pack(">BHH", ctype, 0x0303, len(payload)) + payload


def tunnel_tls(host, port, how, sni, mark):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    i, o = ssl.MemoryBIO(), ssl.MemoryBIO()
    t = ctx.wrap_bio(i, o, server_hostname=None if sni == "-" else sni)
    try:
        t.do_handshake()
    except ssl.SSLWantReadError:
        pass
    rec = o.read()
    hs = rec[5:]
    data = {"plain": rec,
            "alert": tls_record(21, b"\x01\x00") + rec,
            "ccs": tls_record(20, b"\x01") + rec,
            "split": tls_record(22, hs[:40]) + tls_record(22, hs[40:])}[how]
    send_tunnel(host, port, data + tls_record(23, mark.encode()))


def send_tunnel(host, port, data):
    s = socket.create_connection(PROXY)
    s.sendall(("CONNECT %s:%s HTTP/1.1\r\n\r\n" % (host, port)).encode())
    head = recv_head(s)
    if not head.startswith(b"HTTP/1.1 200"):
        print("refused", head.split(b"\r\n")[0].decode())
        return
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    n = 0
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            n += len(b)
    except OSError:
        pass
    print("done %d" % n)


def socks(cmd, atyp, host, port):
    s = socket.create_connection(SOCKS)
    s.sendall(b"\x05\x01\x00")
    if s.recv(2) != b"\x05\x00":
        print("greeting refused")
        return
    if atyp == 1:
        addr = socket.inet_pton(socket.AF_INET, host)
    elif atyp == 4:
        addr = socket.inet_pton(socket.AF_INET6, host)
    else:
        addr = bytes([len(host)]) + host.encode()
    s.sendall(bytes([5, cmd, 0, atyp]) + addr + struct.pack(">H", port))
    rep = s.recv(262)
    print("rep %d" % rep[1] if len(rep) > 1 else "closed")


def parallel(n, url):
    conns = []
    for _ in range(n):
        s = socket.create_connection(PROXY)
        host = url.split("/")[2]
        s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n"
                   % (url, host)).encode())
        conns.append(s)
    print("sent %d" % n, flush=True)
    for s in conns:
        print(recv_head(s).split(b"\r\n")[0].decode())


def tunnels(n, host, port):
    socks_ = []
    for _ in range(n):
        s = socket.create_connection(PROXY)
        s.sendall(("CONNECT %s:%s HTTP/1.1\r\n\r\n" % (host, port)).encode())
        socks_.append(s)
    ok = sum(1 for s in socks_ if recv_head(s).startswith(b"HTTP/1.1 200"))
    sent = 0
    for s in socks_:
        try:
            s.sendall(b"SSH-2.0-sbx-test\r\n")
            sent += 1
        except OSError:
            pass
    print("open %d sent %d" % (ok, sent), flush=True)
    sys.stdin.readline()
    # End each, and wait for the server's end to come back through.
    for s in socks_:
        s.shutdown(socket.SHUT_WR)
    for s in socks_:
        try:
            while s.recv(4096):
                pass
        except OSError:
            pass
        s.close()


def stall(secs):
    s = socket.create_connection(PROXY)
    s.sendall(b"GET http://example.test/ HTTP/1.1\r\nHost: exa")
    s.settimeout(secs)
    t0 = time.monotonic()
    try:
        while s.recv(4096):
            pass
        print("closed after %.1f" % (time.monotonic() - t0))
    except socket.timeout:
        print("open")


def main():
    a = sys.argv[1:]
    if a[0] == "http":
        http(a[1])
    elif a[0] == "connect-tls":
        connect_tls(a[1], a[2], a[3])
    elif a[0] == "tunnel":
        tunnel(a[1], a[2], a[3])
    elif a[0] == "tunnel-tls":
        tunnel_tls(a[1], a[2], a[3], a[4], a[5])
    elif a[0] == "socks":
        socks(int(a[1]), int(a[2]), a[3], int(a[4]))
    elif a[0] == "parallel":
        parallel(int(a[1]), a[2])
    elif a[0] == "tunnels":
        tunnels(int(a[1]), a[2], a[3])
    elif a[0] == "stall":
        stall(float(a[1]))


if __name__ == "__main__":
    main()
