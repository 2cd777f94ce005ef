# Shared by the policy push tests (sourced after lib.sh): a private org
# dir, push store and trusted-keys dir, and a non-root peer.
#
# Pushing as a non-root peer needs a daemon that serves a non-root user.
# As root, that is privileged mode for $SBX_TEST_USER, with `peer` running
# sbxctl as that user; as a user, the daemon is the user's own and `peer`
# is plain `sbx` (the trusted-keys dir is then the user's: --trusted-keys
# accepts the daemon's own files, for tests).
ORG=$T/org
STATE=$T/state
KEYS=$T/keys
mkdir -p "$ORG" "$STATE" "$KEYS"
chmod 755 "$ORG" "$STATE" "$KEYS"

# push_daemon [ARGS...]: the test's daemon with those directories.
push_daemon() {
	start_daemon --org-dir "$ORG" --state-dir "$STATE" \
		--trusted-keys "$KEYS" "$@"
}

# peer_daemon [ARGS...]: as push_daemon, serving a non-root user.
peer_daemon() {
	if [ "$(id -u)" -eq 0 ]; then
		PEER_USER=${SBX_TEST_USER:-sbxtest}
		id "$PEER_USER" >/dev/null 2>&1 || skip "no user $PEER_USER"
		chown "$PEER_USER": "$WS"
		push_daemon --user "$PEER_USER" "$@"
		chmod 755 "$XDG_RUNTIME_DIR"
	else
		push_daemon "$@"
	fi
}

# peer ARGS...: sbxctl as the non-root user the daemon serves.
peer() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid="$PEER_USER" --regid="$PEER_USER" \
			--init-groups "$BIN/sbxctl" --no-autostart \
			--socket "$SOCK" "$@"
	else
		sbx "$@"
	fi
}

# org_policy SERIAL FILE: an org policy that denies reading $T/secret.txt
# and connecting to denied.example, its rules named after the serial.
echo top-secret >"$T/secret.txt"
chmod 644 "$T/secret.txt"
org_policy() {
	cat >"$2" <<JSON
{
  "serial": $1,
  "filesystem": {
    "denyRead": [ { "path": "$T/secret.txt", "id": "org-secret-$1" } ]
  },
  "network": {
    "deniedDomains": [
      { "domain": "denied.example", "id": "org-deny-$1",
        "reason": "org policy $1" }
    ]
  }
}
JSON
	chmod 644 "$2"
}

# keygen NAME: a key pair $T/NAME.key, $T/NAME.pub; trust NAME puts the
# public key in the trusted-keys dir.
keygen() { sbx policy keygen --out "$T/$1" >/dev/null; }
trust() { cp "$T/$1.pub" "$KEYS/"; chmod 644 "$KEYS/$1.pub"; }
# sign FILE NAME: FILE.sig, by key NAME.
sign() { sbx policy sign "$1" --key "$T/$2.key" >/dev/null; }
# signed_org SERIAL: $T/org.json (org_policy SERIAL) and its signature by
# key "admin", made and trusted here.
signed_org() {
	keygen admin
	trust admin
	org_policy "$1" "$T/org.json"
	sign "$T/org.json" admin
}

# explain_rule TARGET: the "rule:" line of `policy explain TARGET`.
explain_rule() { sbx policy explain "$1" | grep -m1 'rule:'; }
