#!/usr/bin/env python3
"""A host process's IPC objects, made as the test user with mode 0600: a
SysV shared memory segment holding "host-data", a message queue holding
one message, a semaphore set of one semaphore at 5, and a POSIX message
queue holding one message. Prints "shmkey shmid msgkey msgid semkey semid
mqname"; then, on a line "check" on stdin (or at EOF), prints their state
(the segment's first bytes, the queue's message count, the semaphore's
value, the POSIX queue's message count, looked up by name; "gone" for one
removed) on one
line, removes them and exits.
usage: ipchold.py"""
import ctypes
import os
import sys

IPC_CREAT, IPC_EXCL, IPC_NOWAIT, IPC_RMID = 0o1000, 0o2000, 0o4000, 0
GETVAL, SETVAL = 12, 16
O_RDWR, O_CREAT, O_EXCL = os.O_RDWR, os.O_CREAT, os.O_EXCL

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]
libc.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int,
                         ctypes.c_void_p]


class MqAttr(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long),
                ("msgsize", ctypes.c_long), ("curmsgs", ctypes.c_long),
                ("pad", ctypes.c_long * 4)]


def ok(r, what):
    if r == -1 or r is None:
        e = ctypes.get_errno()
        raise SystemExit("%s: %s" % (what, os.strerror(e)))
    return r


def sysv_field(kind, ident, col):
    """A column of /proc/sysvipc/KIND for id IDENT, or None if gone."""
    with open("/proc/sysvipc/" + kind) as f:
        names = f.readline().split()
        for line in f:
            v = line.split()
            if int(v[names.index({"shm": "shmid", "msg": "msqid",
                                  "sem": "semid"}[kind])]) == ident:
                return v[names.index(col)]
    return None


def main():
    base = 0x5b000000 | (os.getpid() & 0xffffff)
    shmkey, msgkey, semkey = base, base + 1, base + 2
    shmid = ok(libc.shmget(shmkey, 4096, IPC_CREAT | IPC_EXCL | 0o600),
               "shmget")
    addr = ok(libc.shmat(shmid, None, 0), "shmat")
    ctypes.memmove(addr, b"host-data\0", 10)
    libc.shmdt(ctypes.c_void_p(addr))
    msgid = ok(libc.msgget(msgkey, IPC_CREAT | IPC_EXCL | 0o600), "msgget")
    buf = ctypes.create_string_buffer(ctypes.sizeof(ctypes.c_long) + 8)
    ctypes.memmove(buf, ctypes.byref(ctypes.c_long(1)),
                   ctypes.sizeof(ctypes.c_long))
    buf[ctypes.sizeof(ctypes.c_long):] = b"host-msg"
    ok(libc.msgsnd(msgid, buf, 8, IPC_NOWAIT), "msgsnd")
    semid = ok(libc.semget(semkey, 1, IPC_CREAT | IPC_EXCL | 0o600),
               "semget")
    ok(libc.semctl(semid, 0, SETVAL, 5), "semctl")
    mqname = "/sbx-test-%d" % os.getpid()
    mq = ok(libc.mq_open(mqname.encode(), O_RDWR | O_CREAT | O_EXCL, 0o600,
                         None), "mq_open")
    ok(libc.mq_send(mq, b"host-mq", 7, 0), "mq_send")
    print(shmkey, shmid, msgkey, msgid, semkey, semid, mqname, flush=True)
    sys.stdin.readline()
    state = []
    addr = libc.shmat(shmid, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        state.append("shm:gone")
    else:
        state.append("shm:" + ctypes.string_at(addr).decode(errors="replace"))
        libc.shmdt(ctypes.c_void_p(addr))
    state.append("msg:%s" % (sysv_field("msg", msgid, "qnum") or "gone"))
    val = libc.semctl(semid, 0, GETVAL)
    state.append("sem:%s" % ("gone" if val == -1 else val))
    attr = MqAttr()
    byname = libc.mq_open(mqname.encode(), O_RDWR, 0, None)
    if byname == -1:
        state.append("mq:gone")
    else:
        ok(libc.mq_getattr(byname, ctypes.byref(attr)), "mq_getattr")
        state.append("mq:%d" % attr.curmsgs)
    print(" ".join(state), flush=True)
    libc.shmctl(shmid, IPC_RMID, None)
    libc.msgctl(msgid, IPC_RMID, None)
    libc.semctl(semid, 0, IPC_RMID)
    libc.mq_unlink(mqname.encode())


if __name__ == "__main__":
    main()
