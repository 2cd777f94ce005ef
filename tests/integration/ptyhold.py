#!/usr/bin/env python3
"""Holds a pty as a user's other terminal would be: a host process keeps
both ends open, the slave raw and without echo (as at a password prompt),
and SECRET typed into it waits in its input queue. Prints the slave's path;
then, on a line "check" on stdin, prints two lines: what is left of the
typed input (repr of the bytes), and what anyone wrote to the terminal
meanwhile (repr; b'' when nothing came). Writes are ordered by writing a
marker to the slave and reading the master up to it: no sleeps.
usage: ptyhold.py SECRET"""
import os
import select
import sys
import tty

TIMEOUT = 20
MARK = b"\x01ptyhold-mark\x01"


def main():
    secret = sys.argv[1].encode() + b"\n"
    master, slave = os.openpty()
    tty.setraw(slave)
    os.write(master, secret)
    # Typed input reaches the slave's queue asynchronously: wait for it.
    r, _, _ = select.select([slave], [], [], TIMEOUT)
    if not r:
        raise SystemExit("typed input never arrived")
    print(os.ttyname(slave), flush=True)
    if sys.stdin.readline().strip() != "check":
        raise SystemExit("expected check")
    left = b""
    os.set_blocking(slave, False)
    try:
        left = os.read(slave, 4096)
    except BlockingIOError:
        pass
    os.write(slave, MARK)
    out = b""
    while MARK not in out:
        r, _, _ = select.select([master], [], [], TIMEOUT)
        if not r:
            raise SystemExit("marker never came back")
        out += os.read(master, 65536)
    print(repr(left), flush=True)
    print(repr(out[:out.index(MARK)]), flush=True)


if __name__ == "__main__":
    main()
