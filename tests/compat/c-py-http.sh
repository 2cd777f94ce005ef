#!/bin/bash
# A server inside the run called from inside it: python's http.server on
# the loopback and urllib (which honours the proxy variables sbx sets), by
# 127.0.0.1 and localhost.
. "$(dirname "$0")/compat-lib.sh"
setup() { echo 'hello from the server' >"$WS/index.txt"; }
body() {
	cat <<EOF
$PY - <<'PY'
import http.server, threading, urllib.request, functools, os
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
h = functools.partial(Quiet, directory=os.getcwd())
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
threading.Thread(target=s.serve_forever, daemon=True).start()
port = s.server_address[1]
for host in ("127.0.0.1", "localhost"):
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/index.txt", timeout=10) as r:
            print(host, r.status, r.read().decode().strip())
    except Exception as e:
        print(host, "failed:", getattr(e, "code", type(e).__name__))
s.shutdown()
PY
EOF
}
compat_main
