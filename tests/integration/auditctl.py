#!/usr/bin/env python3
"""The one thing the Landlock audit test needs of auditctl(8), which may
not be installed: auditctl.py get (prints 1 when kernel audit is on, 0
when off) and auditctl.py set 0|1. Needs root (CAP_AUDIT_CONTROL)."""
import socket
import struct
import sys

NETLINK_AUDIT = 9
AUDIT_GET, AUDIT_SET = 1000, 1001
NLM_F_REQUEST, NLM_F_ACK = 1, 4
AUDIT_STATUS_ENABLED = 1
NLMSG_ERROR = 2


def request(s, typ, payload=b"", flags=NLM_F_REQUEST):
    s.send(struct.pack("=IHHII", 16 + len(payload), typ, flags, 1, 0) +
           payload)
    data = s.recv(65536)
    _, rtype, _, _, _ = struct.unpack("=IHHII", data[:16])
    return rtype, data[16:]


def main():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
    if sys.argv[1] == "get":
        rtype, body = request(s, AUDIT_GET)
        if rtype != AUDIT_GET:
            sys.exit("audit: no status (error %d)" %
                     struct.unpack("=i", body[:4])[0])
        mask, enabled = struct.unpack("=II", body[:8])
        print(1 if enabled else 0)
        return
    # struct audit_status: mask, enabled, then fields we leave at 0.
    status = struct.pack("=II", AUDIT_STATUS_ENABLED, int(sys.argv[2]))
    status += b"\0" * (40 - len(status))
    rtype, body = request(s, AUDIT_SET, status, NLM_F_REQUEST | NLM_F_ACK)
    err = struct.unpack("=i", body[:4])[0] if rtype == NLMSG_ERROR else 0
    if err:
        sys.exit("audit: cannot set enabled: error %d" % err)


if __name__ == "__main__":
    main()
