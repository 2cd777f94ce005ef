#!/usr/bin/env python3
"""Runs a command in a new user namespace whose user.max_net_namespaces is
0, the uid and gid mapped to themselves: a host that forbids network
namespaces while user namespaces still work, as sbxd sees it (the limit
holds for every user namespace made inside, too). Execs the command, so
it keeps this pid.

usage: nonetns.py CMD [ARGS...]
"""
import ctypes
import os
import sys

CLONE_NEWUSER = 0x10000000


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def main():
    uid, gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWUSER) != 0:
        e = ctypes.get_errno()
        sys.exit("nonetns: unshare(CLONE_NEWUSER): %s" % os.strerror(e))
    write("/proc/self/uid_map", "%d %d 1\n" % (uid, uid))
    write("/proc/self/setgroups", "deny")
    write("/proc/self/gid_map", "%d %d 1\n" % (gid, gid))
    # Ours to set: the new namespace's creator holds CAP_SYS_RESOURCE in
    # it until the exec below.
    write("/proc/sys/user/max_net_namespaces", "0\n")
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
