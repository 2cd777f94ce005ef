"""A process's cgroup as the host sees it: cgpath.py PID dir CTRL prints the
directory of PID's cgroup for controller CTRL (its v1 hierarchy's where
the controller is bound to v1, else the unified one), `subtree CTRL` the
sandboxes' parent of sbxd PID; cgpath.py PID read
KIND prints what bounds it: pids (pids.max), memory (memory.max, or v1's
memory.limit_in_bytes), cpu ("weight N", or v1's "shares N"), pids-hit
(pids.events max), oom-kills (memory.events / v1 memory.oom_control)."""
import os
import sys


def layout(pid):
    paths = {}
    with open('/proc/%s/cgroup' % pid) as f:
        for line in f:
            _, ctrls, path = line.rstrip('\n').split(':', 2)
            for c in (ctrls.split(',') if ctrls else ['']):
                paths[c] = path
    mounts = {}
    with open('/proc/self/mountinfo') as f:
        for line in f:
            pre, post = line.split(' - ', 1)
            a, b = pre.split(), post.split()
            if b[0] == 'cgroup2':
                mounts.setdefault('', (a[3], a[4]))
            elif b[0] == 'cgroup':
                for o in b[2].split(','):
                    mounts.setdefault(o, (a[3], a[4]))
    return paths, mounts


def where(pid, ctrl):
    """(version, directory) of pid's cgroup serving ctrl."""
    paths, mounts = layout(pid)
    key = ctrl if ctrl in paths and ctrl in mounts else ''
    root, mnt = mounts[key]
    path = paths[key]
    if root != '/':
        path = path[len(root):]
    return (1 if key else 2), (mnt + path).rstrip('/')


def keyed(path, key):
    with open(path) as f:
        for line in f:
            k, v = line.split()
            if k == key:
                return v
    return ''


def main():
    pid, mode, what = sys.argv[1:4]
    if mode == 'dir':
        print(where(pid, what)[1])
        return
    if mode == 'subtree':
        # PID is sbxd: its sandboxes' parent (v2: beside its own leaf).
        v, d = where(pid, what)
        print((os.path.dirname(d) if v == 2 else d) + '/sbx-' + pid)
        return
    ctrl = {'pids': 'pids', 'pids-hit': 'pids', 'memory': 'memory',
            'oom-kills': 'memory', 'cpu': 'cpu'}[what]
    v, d = where(pid, ctrl)
    if what == 'pids':
        out = open(os.path.join(d, 'pids.max')).read().strip()
    elif what == 'pids-hit':
        out = keyed(os.path.join(d, 'pids.events'), 'max')
    elif what == 'memory':
        out = open(os.path.join(d, 'memory.max' if v == 2 else
                                'memory.limit_in_bytes')).read().strip()
    elif what == 'oom-kills':
        out = keyed(os.path.join(d, 'memory.events' if v == 2 else
                                 'memory.oom_control'), 'oom_kill')
    else:
        out = ('weight ' + open(os.path.join(d, 'cpu.weight')).read().strip()
               if v == 2 else
               'shares ' + open(os.path.join(d, 'cpu.shares')).read().strip())
    print(out)


main()
