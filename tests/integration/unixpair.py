#!/usr/bin/env python3
"""A Unix stream server and a client in one process, at PATH: the server
answers each line it gets in upper case. Prints the answer, or the errno
name of the step that failed ("connect: EACCES").

usage: unixpair.py PATH        (a path, or @NAME for an abstract socket)
"""
import errno
import os
import socket
import sys
import threading

path = sys.argv[1]
addr = "\0" + path[1:] if path.startswith("@") else path
try:
    if not path.startswith("@") and os.path.exists(path):
        os.unlink(path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(addr)
    srv.listen(1)
except OSError as e:
    print("server: " + errno.errorcode.get(e.errno, str(e.errno)))
    sys.exit(0)


def serve():
    c, _ = srv.accept()
    c.sendall(c.recv(64).upper())
    c.close()


t = threading.Thread(target=serve)
t.start()
try:
    cl = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # Relative to the cwd as the kernel resolves it, when it is one.
    cl.connect(addr)
    cl.sendall(b"hello\n")
    print(cl.recv(64).decode().strip())
except OSError as e:
    print("connect: " + errno.errorcode.get(e.errno, str(e.errno)))
    cl2 = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        # Unblock the server thread from the outside.
        cl2.connect(addr)
    except OSError:
        pass
    cl2.close()
t.join(5)
