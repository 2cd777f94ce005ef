#!/usr/bin/env python3
"""Runs a command on a fresh pty, as a terminal user would, for the tty
tests. Steps run in order: `expect TEXT` waits (select, no sleeps) until TEXT
has appeared in the output, `wait TEXT` waits until TEXT has appeared anywhere
(in any order with other waits), `send TEXT` types it (\\r, \\x03 escapes work),
`resize ROWS COLS` changes the window. Prints everything the command wrote
and exits with its exit status (128+N on signal N).
usage: ptydrive.py [--rows R --cols C] [STEP ARG...]... -- CMD..."""
import fcntl
import os
import pty
import select
import struct
import sys
import termios

TIMEOUT = 30


def main():
    args = sys.argv[1:]
    sep = args.index("--")
    steps, cmd = args[:sep], args[sep + 1:]
    rows, cols = 24, 80
    if steps[:1] == ["--rows"]:
        rows, cols = int(steps[1]), int(steps[3])
        steps = steps[4:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    out = b""
    i = 0

    def read_some(timeout):
        nonlocal out
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            raise TimeoutError(out)
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        out += data
        return data

    seen = 0
    while i < len(steps):
        op, arg = steps[i], steps[i + 1]
        if op == "expect":
            want = arg.encode()
            while want not in out[seen:]:
                if not read_some(TIMEOUT):
                    sys.stdout.write(out.decode(errors="replace"))
                    sys.exit(99)
            seen = out.index(want, seen) + len(want)
            i += 2
        elif op == "wait":
            while arg.encode() not in out:
                read_some(TIMEOUT)
            i += 2
        elif op == "send":
            os.write(fd, arg.encode().decode("unicode_escape").encode("latin1"))
            i += 2
        elif op == "resize":
            r, c = int(arg), int(steps[i + 2])
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", r, c, 0, 0))
            i += 3
        else:
            raise SystemExit("bad step " + op)
    while read_some(TIMEOUT):
        pass
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(out.decode(errors="replace"))
    if os.WIFEXITED(status):
        sys.exit(os.WEXITSTATUS(status))
    sys.exit(128 + os.WTERMSIG(status))


if __name__ == "__main__":
    main()
