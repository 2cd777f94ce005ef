# Inside a sandbox: DNS over TCP to the stub (any address, port 53, is
# redirected to it), queries sent without reading an answer. Prints how
# many queries the stub took before sending stalled for 3 s (or the cap
# was reached), then waits for a line on the fifo argv[1] with the
# connection still open, so the host can look at the daemon; then reads
# the answers and prints how many came (every query taken gets one).
import socket, struct, sys

CAP = 64 << 20
labels = b"".join(bytes([60]) + b"a" * 60 for _ in range(3))
name = labels + b"\x09localhost\x00"
def query(i):
    m = struct.pack(">HHHHHH", i & 0xffff, 0x0100, 1, 0, 0, 0) + name + \
        struct.pack(">HH", 1, 1)
    return struct.pack(">H", len(m)) + m
chunk = b"".join(query(i) for i in range(256))
s = socket.create_connection(("192.0.2.53", 53), 5)
s.settimeout(3)
sent = 0
try:
    while sent < CAP:
        sent += s.send(chunk)
except (socket.timeout, OSError):
    pass
qlen = len(query(0))
print(sent // qlen, flush=True)
open(sys.argv[1]).readline()
s.settimeout(10)
buf, answers = b"", 0
try:
    while answers < sent // qlen:
        d = s.recv(65536)
        if not d:
            break
        buf += d
        while len(buf) >= 2 and len(buf) >= 2 + (buf[0] << 8 | buf[1]):
            buf = buf[2 + (buf[0] << 8 | buf[1]):]
            answers += 1
except OSError:
    pass
print(answers, flush=True)
s.close()
