#!/bin/bash
# The filesystem policy, enforced: denyRead masks content and listings,
# denyWrite and protected paths are read-only, allowWrite adds writable
# trees, .sbxignore matches are masked (hard links to them too), and the
# host is left as it was.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
mkdir -p "$T/secret-dir" "$T/extra" "$WS/.git/hooks" "$WS/sub/deep" "$WS/keys"
echo top-secret >"$T/secret-dir/key"
echo host-secret >"$T/secret.txt"
echo original >"$WS/readonly.txt"
echo "[core]" >"$WS/.git/config"
echo git-secret >"$WS/.git/credentials"
echo ignored-in-git >"$WS/.git/notes.pem"
echo "env-secret" >"$WS/.env"
echo "nested" >"$WS/sub/deep/creds.pem"
echo "keep" >"$WS/keep.txt"
printf '.env\n*.pem\nkeys/\n' >"$WS/.sbxignore"
ln "$WS/.env" "$WS/innocent.txt"
# Inside a read-only (protected) directory: masked all the same.
mkdir -p "$WS/.vscode"
echo vs-secret >"$WS/.vscode/creds.pem"
ln "$WS/.env" "$WS/.vscode/linked.json"
# A protected file (read-only by name) that is another link of it too.
ln "$WS/.env" "$WS/.mcp.json"
cat >"$T/policy.json" <<JSON
{
  "filesystem": {
    "denyRead": ["$T/secret-dir", "$T/secret.txt", "$WS/.git/credentials"],
    "allowWrite": [".", "$T/extra"],
    "denyWrite": ["$WS/readonly.txt"]
  }
}
JSON
start_daemon --policy "$T/policy.json"
cd "$WS"
expect_eq "denyRead file unreadable" "$(sbx run -- "$P" read "$T/secret.txt")" EACCES
expect_eq "denyRead dir content unreadable" "$(sbx run -- "$P" read "$T/secret-dir/key")" EACCES
out=$(sbx run -- ls "$T/secret-dir" 2>&1)
check "denyRead dir cannot be listed ($out)" grep -q "Permission denied" <<<"$out"
expect_eq "writing through a masked dir fails" "$(sbx run -- "$P" write "$T/secret-dir/x")" EACCES
check "nothing written into the masked dir" test ! -e "$T/secret-dir/x"
# .git is bound onto itself (its config and hooks protected): the bind
# keeps what is masked inside it.
expect_eq "denyRead file inside .git unreadable" \
	"$(sbx run -- "$P" read "$WS/.git/credentials")" EACCES
expect_eq "ignored file inside .git unreadable" \
	"$(sbx run -- "$P" read "$WS/.git/notes.pem")" EACCES
expect_eq "ignored file inside protected .vscode unreadable" \
	"$(sbx run -- "$P" read "$WS/.vscode/creds.pem")" EACCES
expect_eq "another link of a masked file, in .vscode, unreadable" \
	"$(sbx run -- "$P" read "$WS/.vscode/linked.json")" EACCES
expect_eq "a protected name that is another link of a masked file, unreadable" \
	"$(sbx run -- "$P" read "$WS/.mcp.json")" EACCES
expect_eq "denyWrite file is read-only" "$(sbx run -- "$P" write "$WS/readonly.txt")" EROFS
expect_eq "host denyWrite file unchanged" "$(cat "$WS/readonly.txt")" original
expect_eq ".git/config is protected" "$(sbx run -- "$P" write "$WS/.git/config")" EROFS
expect_eq ".git/hooks is protected" "$(sbx run -- "$P" write "$WS/.git/hooks/pre-commit")" EROFS
check "no hook created on the host" test ! -e "$WS/.git/hooks/pre-commit"
expect_eq ".sbxignore itself is protected" "$(sbx run -- "$P" write "$WS/.sbxignore")" EROFS
expect_eq "ignored file unreadable" "$(sbx run -- "$P" read "$WS/.env")" EACCES
expect_eq "ignored pattern at depth" "$(sbx run -- "$P" read "$WS/sub/deep/creds.pem")" EACCES
expect_eq "ignored directory" "$(sbx run -- "$P" read "$WS/keys")" EACCES
expect_eq "hard link to an ignored file is masked too" "$(sbx run -- "$P" read "$WS/innocent.txt")" EACCES
expect_eq "other files readable" "$(sbx run -- cat "$WS/keep.txt")" keep
expect_eq "workspace still writable" "$(sbx run -- "$P" write "$WS/new.txt")" ok
expect_eq "extra allowWrite tree writable" "$(sbx run -- "$P" write "$T/extra/f")" ok
check "extra write landed on the host" test -e "$T/extra/f"
expect_eq "outside allowWrite read-only" "$(sbx run -- "$P" write "$T/elsewhere")" EROFS
expect_eq "host secret intact" "$(cat "$WS/.env")" env-secret
check "template held for the workspace" python3 -c 'import json,sys; assert json.load(sys.stdin)["templates"] >= 1' < <(sbx --json status)
# A bad edit to the policy keeps the last good one in force, visibly.
echo '{ "filesystem": { "denyRead": [ }' >"$T/policy.json"
expect_eq "broken policy: last good still masks" "$(sbx run -- "$P" read "$T/secret.txt")" EACCES
check "status shows the problem with a position" bash -c 'sbx status | grep -q "policy:.*policy.json:1:"'
stop_daemon
done_test
