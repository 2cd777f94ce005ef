#!/usr/bin/env python3
"""Loopback servers for the proxy tests. Prints "listening PORT" once it
accepts connections (tests read that line; no sleeps), and appends one line
per accepted connection to LOG ("conn PEER", then "bytes N" when it ends for
raw), so a test can assert that nothing reached it.

usage: netserver.py MODE LOG [--bind ADDR] [--port N] [--tls CERT KEY] [ARGS...]
  --tls            http and git modes over TLS; every request is logged
                   ("req METHOD TARGET", then "auth VALUE" for an
                   Authorization field, "key VALUE" for X-Api-Key, and
                   with SIGV4_SECRET set "sigv4 KEYID ok|bad", and a POST's
                   "body BYTES"); GET /headers answers the request's
                   header lines (gzip when Accept-Encoding asks);
                   GET /ws answers 101 and
                   echoes every byte after it
  http DIR         files from DIR (GET, HEAD), POST /echo answers the body
                   (Content-Length or chunked); HTTP/1.1 keep-alive
  tls CERT KEY     TLS; answers one HTTP request with "tls ok SNI"
  raw              reads until EOF and logs how many bytes came
  dump             reads until EOF and logs them ("data " and the bytes
                   with \\r, \\n and non-ASCII escaped), so a test can
                   tell which requests of a stream reached it
  reset            reads the request head, then resets the connection
  git ROOT         git's smart HTTP: git http-backend as CGI over ROOT
  pypi DIR         a PEP 503 simple index: /simple/NAME/ lists DIR/*.whl
  npm              a registry answering GET /NAME with a packument
  dns NAME=ADDR... a UDP name server: A records for those names, NXDOMAIN
                   for the rest; logs "query NAME" for every question
"""
import http.server
import json
import os
import socket
import socketserver
import ssl
import struct
import subprocess
import sys
import threading
import time

lock = threading.Lock()


def log(path, line):
    with lock, open(path, "a") as f:
        f.write(line + "\n")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 1024

    def __init__(self, addr, handler, logpath):
        self.logpath = logpath
        if ":" in addr[0]:
            self.address_family = socket.AF_INET6
        super().__init__(addr, handler)

    def get_request(self):
        sock, peer = super().get_request()
        log(self.logpath, "conn %s" % (peer[0],))
        return sock, peer


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = "http"
    args = []
    tls = False

    def log_message(self, *a):
        pass

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))

    def send(self, code, data, ctype="text/plain", gz=False):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        if gz:
            import gzip
            data = gzip.compress(data)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def parse_request(self):
        ok = super().parse_request()
        if ok and Handler.tls:
            log(self.server.logpath, "req %s %s" % (self.command, self.path))
            if "Authorization" in self.headers:
                log(self.server.logpath, "auth %s" % self.headers["Authorization"])
            if "X-Api-Key" in self.headers:
                log(self.server.logpath, "key %s" % self.headers["X-Api-Key"])
            if os.environ.get("SIGV4_SECRET") and "Authorization" in self.headers:
                sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
                import sigv4
                kid, ok = sigv4.verify(self.command, self.path, self.headers,
                                       os.environ["SIGV4_SECRET"])
                log(self.server.logpath, "sigv4 %s %s" % (kid, "ok" if ok else "bad"))
        return ok

    def do_DELETE(self):
        self.send(200, b"deleted\n")

    def do_PUT(self):
        self.do_POST()

    def do_POST(self):
        if self.mode == "git":
            return self.git()
        data = self.body()
        if Handler.tls:
            log(self.server.logpath, "body %s" % data.decode("latin1").replace("\n", " "))
        self.send(200, data)

    def do_GET(self):
        if self.mode == "git":
            return self.git()
        if self.mode == "pypi":
            return self.pypi()
        if self.mode == "npm":
            return self.npm()
        if self.path == "/headers" and Handler.tls:
            # Compressed when asked, like most servers.
            return self.send(200, str(self.headers).encode(), gz="gzip" in
                             self.headers.get("Accept-Encoding", ""))
        if self.path == "/ws" and Handler.tls:
            return self.upgrade()
        if self.path.startswith("/tail?n=") and Handler.tls:
            # A keep-alive answer that ends in the start of the token
            # received (Authorization's last word): its first n bytes.
            return self.send(200, self.token()[:int(self.path[8:])])
        if self.path == "/split" and Handler.tls:
            return self.split()
        return super().do_GET()

    def token(self):
        return self.headers.get("Authorization", "").split(" ")[-1].encode()

    def split(self):
        """The token received in two writes 0.3 s apart: longer than
        sbxd holds bytes that could begin a credential."""
        tok = self.token()
        self.send_response(200)
        self.send_header("Content-Length", str(len(tok)))
        self.end_headers()
        self.wfile.write(tok[:len(tok) // 2])
        self.wfile.flush()
        time.sleep(0.3)
        self.wfile.write(tok[len(tok) // 2:])

    def upgrade(self):
        """101, then every byte echoed back until the end (the framing of
        WebSocket is not what a test looks at)."""
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.end_headers()
        self.wfile.flush()
        while True:
            data = self.connection.recv(65536)
            if not data:
                break
            self.connection.sendall(data)
        self.close_connection = True

    def pypi(self):
        root = self.args[0]
        parts = [p for p in self.path.split("/") if p]
        if len(parts) == 2 and parts[0] == "simple":
            name = parts[1].lower().replace("_", "-")
            links = "".join('<a href="/files/%s">%s</a>\n' % (f, f)
                            for f in sorted(os.listdir(root))
                            if f.lower().replace("_", "-").startswith(name))
            page = "<html><body>\n%s</body></html>\n" % links
            return self.send(200, page.encode(), "text/html")
        if len(parts) == 2 and parts[0] == "files":
            with open(os.path.join(root, os.path.basename(parts[1])), "rb") as f:
                return self.send(200, f.read(), "application/octet-stream")
        return self.send(404, b"not found\n")

    def npm(self):
        name = self.path.strip("/").split("/")[0]
        if not name.startswith("sbx-"):
            return self.send(404, b'{"error":"not found"}')
        host = self.headers.get("Host", "")
        doc = {"name": name, "dist-tags": {"latest": "1.2.3"},
               "versions": {"1.2.3": {
                   "name": name, "version": "1.2.3",
                   "description": "a package served by the sbx test",
                   "dist": {"tarball": "http://%s/%s/-/%s-1.2.3.tgz" % (host, name, name),
                            "shasum": "0" * 40}}},
               "time": {"1.2.3": "2024-01-01T00:00:00.000Z"}}
        return self.send(200, json.dumps(doc).encode(), "application/json")

    def git(self):
        path, _, query = self.path.partition("?")
        env = dict(os.environ, GIT_PROJECT_ROOT=self.args[0],
                   GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                   QUERY_STRING=query, REQUEST_METHOD=self.command,
                   CONTENT_TYPE=self.headers.get("Content-Type", ""),
                   REMOTE_ADDR="127.0.0.1", GATEWAY_INTERFACE="CGI/1.1",
                   HTTP_GIT_PROTOCOL=self.headers.get("Git-Protocol", ""))
        data = self.body() if self.command == "POST" else b""
        if self.headers.get("Content-Encoding") == "gzip":
            env["HTTP_CONTENT_ENCODING"] = "gzip"
        env["CONTENT_LENGTH"] = str(len(data))
        out = subprocess.run(["git", "http-backend"], input=data, env=env,
                             stdout=subprocess.PIPE, check=False).stdout
        head, _, body = out.partition(b"\r\n\r\n")
        status = 200
        hdrs = []
        for line in head.split(b"\r\n"):
            k, _, v = line.decode().partition(":")
            if k.lower() == "status":
                status = int(v.split()[0])
            elif k:
                hdrs.append((k, v.strip()))
        self.send_response(status)
        for k, v in hdrs:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def read_head(sock):
    """Bytes up to the end of a request head, or to EOF."""
    data = b""
    while b"\r\n\r\n" not in data:
        b = sock.recv(4096)
        if not b:
            break
        data += b
    return data


def serve_raw(listener, logpath, dump=False):
    while True:
        conn, peer = listener.accept()
        log(logpath, "conn %s" % (peer[0],))

        def run(c):
            data, n = b"", 0
            while True:
                try:
                    b = c.recv(65536)
                except OSError:
                    break
                if not b:
                    break
                n += len(b)
                if dump:
                    data += b
            if dump:
                log(logpath, "data " + data.decode("latin1").encode(
                    "unicode_escape").decode("ascii"))
            else:
                log(logpath, "bytes %d" % n)
            c.close()
        threading.Thread(target=run, args=(conn,), daemon=True).start()


def serve_reset(listener, logpath):
    while True:
        conn, peer = listener.accept()
        log(logpath, "conn %s" % (peer[0],))
        read_head(conn)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                        struct.pack("ii", 1, 0))
        conn.close()


def serve_tls(listener, logpath, cert, key):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    names = {}

    def sni(sock, name, _ctx):
        names[id(sock)] = name

    ctx.sni_callback = sni
    while True:
        conn, peer = listener.accept()
        log(logpath, "conn %s" % (peer[0],))

        def run(c):
            try:
                s = ctx.wrap_socket(c, server_side=True)
                if b"\r\n\r\n" not in read_head(s):
                    return
                body = ("tls ok %s\n" % names.get(id(s), "-")).encode()
                log(logpath, "served %s" % names.get(id(s), "-"))
                s.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n"
                          b"Connection: close\r\n\r\n%s" % (len(body), body))
                s.close()
            except (OSError, ssl.SSLError) as e:
                log(logpath, "tls error %s" % e)
        threading.Thread(target=run, args=(conn,), daemon=True).start()


def serve_dns(bind, port, logpath, entries):
    names = dict(e.split("=", 1) for e in entries)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((bind, port))
    print("listening %d" % s.getsockname()[1], flush=True)
    while True:
        msg, peer = s.recvfrom(4096)
        if len(msg) < 12:
            continue
        o, labels = 12, []
        while o < len(msg) and msg[o]:
            labels.append(msg[o + 1:o + 1 + msg[o]].decode("ascii", "replace"))
            o += 1 + msg[o]
        name = ".".join(labels).lower()
        qtype = struct.unpack("!H", msg[o + 1:o + 3])[0]
        log(logpath, "query %s" % name)
        question = msg[12:o + 5]
        addr = names.get(name)
        if addr is None:
            head = msg[:2] + b"\x81\x83" + struct.pack("!HHHH", 1, 0, 0, 0)
            s.sendto(head + question, peer)
            continue
        ans = b""
        if qtype == 1:
            ans = (b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) +
                   socket.inet_aton(addr))
        head = msg[:2] + b"\x81\x80" + struct.pack("!HHHH", 1, 1 if ans else 0, 0, 0)
        s.sendto(head + question + ans, peer)


def main():
    mode, logpath = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    bind, port, tls = "127.0.0.1", 0, None
    while rest and rest[0] in ("--bind", "--port", "--tls"):
        if rest[0] == "--bind":
            bind = rest[1]
        elif rest[0] == "--tls":
            tls = rest[1:3]
            rest = rest[1:]
        else:
            port = int(rest[1])
        rest = rest[2:]
    open(logpath, "a").close()
    if mode == "dns":
        serve_dns(bind, port, logpath, rest)
        return
    if mode in ("raw", "dump", "tls", "reset"):
        fam = socket.AF_INET6 if ":" in bind else socket.AF_INET
        listener = socket.socket(fam, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((bind, port))
        listener.listen(1024)
        print("listening %d" % listener.getsockname()[1], flush=True)
        if mode in ("raw", "dump"):
            serve_raw(listener, logpath, mode == "dump")
        elif mode == "reset":
            serve_reset(listener, logpath)
        else:
            serve_tls(listener, logpath, rest[0], rest[1])
        return
    Handler.mode = mode
    Handler.args = rest
    if mode == "http":
        os.chdir(rest[0])
    srv = Server((bind, port), Handler, logpath)
    if tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(tls[0], tls[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
        Handler.tls = True
    print("listening %d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
