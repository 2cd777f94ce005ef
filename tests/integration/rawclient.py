#!/usr/bin/env python3
"""Speaks raw bytes to sbxd for the bad-input tests: sends one scenario,
then reports what came back (error code and whether the daemon closed).
The few protobuf messages needed are encoded by hand on purpose: the tests
must be able to send what no real client would."""
import socket
import struct
import sys

from pbwire import field, frame, varint


HELLO = frame(field(1, b"\x08\x01" + field(2, b"raw")))
LIST = frame(field(18, b""))
SCENARIOS = {
    "oversize": struct.pack(">I", (1 << 20) + 1) + b"x" * 16,
    "truncated": struct.pack(">I", 100) + b"\x0a\x02",
    "garbage": frame(b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"),
    "unknown": HELLO + frame(varint(99 << 3) + b"\x01"),
    "empty": HELLO + frame(b""),
    "before-hello": LIST,
    "second-hello": HELLO + HELLO,
    "bad-version": frame(field(1, b"\x08\x07")),
    "reply-as-request": HELLO + frame(field(2, b"")),
    "run-missing-fds": HELLO + frame(field(10, field(1, b"true") +
                                         field(3, b"/") + b"\x28\x01" +
                                         b"\x48\x03")),
    "hello-only": HELLO,
}


def read_frames(s):
    data = b""
    s.settimeout(20)
    while True:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            return data, False
        if not chunk:
            return data, True
        data += chunk


def parse(data):
    """Yields (field number, payload) of each Envelope in data."""
    while len(data) >= 4:
        (n,) = struct.unpack(">I", data[:4])
        body, data = data[4:4 + n], data[4 + n:]
        if not body:
            yield 0, b""
            continue
        tag, i = 0, 0
        shift = 0
        while True:
            b = body[i]
            tag |= (b & 0x7F) << shift
            i += 1
            shift += 7
            if not b & 0x80:
                break
        yield tag >> 3, body[i:]


def error_code(payload):
    # payload: varint len + Error{1: code, 2: message}
    i = 0
    while payload[i] & 0x80:
        i += 1
    err = payload[i + 1:]
    code = err[1] if err[:1] == b"\x08" else 0
    return code


def main():
    path, name = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    if name == "truncated":
        s.sendall(SCENARIOS[name])
        s.shutdown(socket.SHUT_WR)
    elif name == "hello-only":
        try:
            s.sendall(SCENARIOS[name])
        except BrokenPipeError:
            pass  # refused at once: the Error is still there to read
        s.settimeout(20)
        print("reply", list(parse(s.recv(65536)))[0][0])
        return
    else:
        s.sendall(SCENARIOS[name])
    data, closed = read_frames(s)
    codes = [error_code(p) for f, p in parse(data) if f == 3]
    print("error" if codes else "no-error", codes[-1] if codes else "-",
          "closed" if closed else "open")


if __name__ == "__main__":
    main()
