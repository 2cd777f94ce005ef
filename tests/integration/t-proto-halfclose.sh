#!/bin/bash
# Half-closing the socket (shutdown(SHUT_WR), Node's socket.end()) is the
# end of stdin for the connection's runs: the command sees EOF, its output
# and exit status still come, then the daemon closes.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
out=$("$PY" "$HERE/protoclient.py" "$SOCK" "$WS" halfclose | tr '\n' ' ')
expect_eq "half-close: EOF on stdin, output, exit status, then closed" "$out" \
	"exit id=4 exited=1 code=0 signal=0 timed_out=0 output abc|eof| then closed "
# 6 MiB: the daemon stops reading at 4 MiB unread, and finds the end only
# after the frames it held back.
out=$("$PY" "$HERE/protoclient.py" "$SOCK" "$WS" halfclose 6291456 | tr '\n' ' ')
expect_eq "half-close after more stdin than the daemon queues" "$out" \
	"exit id=4 exited=1 code=0 signal=0 timed_out=0 output 6291456| then closed "
stop_daemon
done_test
