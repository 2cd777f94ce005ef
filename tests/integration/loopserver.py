#!/usr/bin/env python3
"""A dual-stack HTTP server for a sandboxed run to call from inside the
same run: serves DIR on [::]:0 (127.0.0.1 and ::1 both reach it), writes
"PORT" and a newline to READY (a fifo: the caller waits on it, no sleeps),
and serves until killed.

usage: loopserver.py READY DIR
"""
import functools
import http.server
import socket
import sys


class Server(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6
    daemon_threads = True

    def server_bind(self):
        self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        super().server_bind()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


srv = Server(("::", 0), functools.partial(Quiet, directory=sys.argv[2]))
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % srv.server_address[1])
srv.serve_forever()
