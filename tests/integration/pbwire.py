"""The few protobuf and framing pieces the Python test clients need, by hand
(no generated code: the tests must also send what no real client would)."""
import struct


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out


def field(num, payload):  # length-delimited field
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, value):  # varint field
    return varint(num << 3) + varint(value)


def frame(body):
    return struct.pack(">I", len(body)) + body


def read_varint(buf, i):
    """(value, index after it)"""
    v, shift = 0, 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def decode(buf):
    """{field: [values]}: ints for varints, bytes for the rest."""
    out, i = {}, 0
    while i < len(buf):
        key, i = read_varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = read_varint(buf, i)
        elif wt == 2:
            n, i = read_varint(buf, i)
            v, i = buf[i:i + n], i + n
        else:
            n = 8 if wt == 1 else 4
            v, i = buf[i:i + n], i + n
        out.setdefault(num, []).append(v)
    return out
