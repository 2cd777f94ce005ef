#!/usr/bin/env python3
"""An upstream (corporate) HTTP proxy for the parentProxy tests, on
127.0.0.1. Prints "listening PORT" once it accepts connections, and appends
one line per request to LOG: "CONNECT host:port auth=ok|none|bad" or
"GET http://... auth=...", so a test can tell what reached it and what
never did.

usage: upstreamproxy.py LOG [--auth USER:PASSWORD] [--map NAME=ADDR]...
                         [--mute 1]
  --auth   requests without these Basic credentials get 407
  --mute   read each request head, log it, and never answer
  --map    resolve NAME to ADDR (the upstream resolves the names it is
           asked for, as a real one would; others through the system)
CONNECT relays bytes both ways; an absolute-URI request is sent to the
origin in origin form (Connection: close) and its answer relayed.
"""
import base64
import socket
import sys
import threading

lock = threading.Lock()


def log(path, line):
    with lock, open(path, "a") as f:
        f.write(line + "\n")


def read_head(s):
    data = b""
    while b"\r\n\r\n" not in data:
        b = s.recv(4096)
        if not b:
            return None, b""
        data += b
    head, rest = data.split(b"\r\n\r\n", 1)
    return head.decode("latin1"), rest


def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    try:
        b.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def split_hostport(hp, default):
    if hp.startswith("["):
        host, _, rest = hp[1:].partition("]")
        return host, int(rest[1:]) if rest.startswith(":") else default
    if ":" in hp:
        host, port = hp.rsplit(":", 1)
        return host, int(port)
    return hp, default


def serve(c, cfg):
    try:
        head, rest = read_head(c)
        if head is None:
            return
        lines = head.split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        fields = {}
        for l in lines[1:]:
            k, _, v = l.partition(":")
            fields.setdefault(k.strip().lower(), v.strip())
        got = fields.get("proxy-authorization")
        auth = "none" if got is None else (
            "ok" if got == cfg["auth"] else "bad")
        log(cfg["log"], f"{method} {target} auth={auth}")
        if cfg["mute"]:
            c.recv(1)   # until the client gives up
            return
        if cfg["auth"] is not None and auth != "ok":
            c.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                      b"Proxy-Authenticate: Basic realm=\"t\"\r\n"
                      b"Content-Length: 0\r\nConnection: close\r\n\r\n")
            return
        if method == "CONNECT":
            host, port = split_hostport(target, 443)
        else:
            hp = target.split("://", 1)[1].split("/", 1)
            host, port = split_hostport(hp[0], 80)
            path = "/" + (hp[1] if len(hp) > 1 else "")
        try:
            u = socket.create_connection((cfg["map"].get(host, host), port),
                                         timeout=10)
        except OSError:
            c.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n"
                      b"Connection: close\r\n\r\n")
            return
        u.settimeout(None)
        if method == "CONNECT":
            c.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            u.sendall(rest)
        else:
            keep = [l for l in lines[1:] if l.split(":", 1)[0].strip().lower()
                    not in ("proxy-authorization", "proxy-connection",
                            "connection", "keep-alive")]
            req = "\r\n".join([f"{method} {path} HTTP/1.1"] + keep +
                              ["Connection: close", "", ""])
            u.sendall(req.encode("latin1") + rest)
        t = threading.Thread(target=pipe, args=(c, u), daemon=True)
        t.start()
        pipe(u, c)
        t.join(30)
        u.close()
    except (OSError, ValueError, IndexError):
        pass
    finally:
        c.close()


def main():
    args = sys.argv[1:]
    cfg = {"log": args.pop(0), "auth": None, "map": {}, "mute": False}
    while args:
        opt, val = args.pop(0), args.pop(0)
        if opt == "--auth":
            cfg["auth"] = "Basic " + base64.b64encode(val.encode()).decode()
        elif opt == "--mute":
            cfg["mute"] = True
        elif opt == "--map":
            name, addr = val.split("=", 1)
            cfg["map"][name] = addr
    open(cfg["log"], "a").close()
    lis = socket.socket()
    lis.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lis.bind(("127.0.0.1", 0))
    lis.listen(64)
    print(f"listening {lis.getsockname()[1]}", flush=True)
    sys.stdout.close()
    while True:
        c, _ = lis.accept()
        threading.Thread(target=serve, args=(c, cfg), daemon=True).start()


if __name__ == "__main__":
    main()
