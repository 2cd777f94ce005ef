#!/bin/bash
# python multiprocessing.Manager: a server process on a Unix socket in
# /tmp that the workers reach.
. "$(dirname "$0")/compat-lib.sh"
body() {
	cat <<EOF
$PY - <<'PY'
import multiprocessing as mp

def work(d, i):
    d[i] = i * i

if __name__ == "__main__":
    with mp.Manager() as m:
        d = m.dict()
        ps = [mp.Process(target=work, args=(d, i)) for i in range(4)]
        for p in ps: p.start()
        for p in ps: p.join()
        print(sorted(d.items()))
PY
EOF
}
compat_main
