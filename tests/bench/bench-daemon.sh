# Sourced by the benchmarks that time a warm sbxd: with $root (a scratch
# dir not under /tmp, whose sandboxes have a private one) and $b (the
# build), copies sbxd and sbxctl into $root, makes $home, run/ ws/ out/
# for the sandboxes' user (AS_USER when root, else the caller), sets
# as=(...) to run as that user, sock, and starts sbxd there with dpid set
# and its ready fifo at $root/ready, with sbxd_args=(...) added if set.
chmod 755 "$root"
cp "$b/sbxd" "$b/sbxctl" "$root/"
home=$root/home
as=(env -i HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin USER="$(id -un)"
    LANG=C.UTF-8)
if [ "$(id -u)" -eq 0 ]; then
	id "$AS_USER" >/dev/null 2>&1 || useradd -m "$AS_USER"
	as=(setpriv --reuid="$AS_USER" --regid="$AS_USER" --init-groups
	    env -i HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin
	    USER="$AS_USER" LANG=C.UTF-8)
fi
mkdir -p "$root/run" "$root/ws" "$root/out" "$home"
[ "$(id -u)" -eq 0 ] && chown -R "$AS_USER": "$root/run" "$root/ws" "$root/out" "$home"
chmod 700 "$root/run"
sock="$root/run/sbxd.sock"
mkfifo "$root/ready"
"${as[@]}" XDG_RUNTIME_DIR="$root/run" "$root/sbxd" --socket "$sock" \
	"${sbxd_args[@]}" --ready-fd 3 3>"$root/ready" 2>"$root/sbxd.log" &
dpid=$!
