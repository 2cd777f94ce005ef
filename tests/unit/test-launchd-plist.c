/* Lints launchd/com.sbx.sbxd.plist with Python's plistlib: it parses, and its keys are the ones sbx relies on. */
#define _GNU_SOURCE
#include <spawn.h>
#include <sys/wait.h>

#include "unit.h"

#define PLIST	"launchd/com.sbx.sbxd.plist"

extern char **environ;

/*
 * The checks, each a line on failure: the label; an absolute sbxd under a
 * Homebrew prefix; socket activation through "Listeners" (the name
 * svc-launchd.c asks launch_activate_socket() for) with the path handed
 * to clients in SBX_SOCKET (what sbxctl reads); started on demand only.
 */
static const char script[] =
    "import plistlib, sys\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    p = plistlib.load(f)\n"
    "bad = []\n"
    "def need(ok, what):\n"
    "    if not ok: bad.append(what)\n"
    "need(p.get('Label') == 'com.sbx.sbxd', 'Label')\n"
    "args = p.get('ProgramArguments', [])\n"
    "need(len(args) >= 1 and args[0].endswith('/bin/sbxd') and\n"
    "     args[0].startswith(('/opt/homebrew/', '/usr/local/')),\n"
    "     'ProgramArguments: sbxd under a Homebrew prefix')\n"
    "need('Program' not in p, 'no Program beside ProgramArguments')\n"
    "sock = p.get('Sockets', {}).get('Listeners', {})\n"
    "need(sock.get('SecureSocketWithKey') == 'SBX_SOCKET',\n"
    "     'Sockets.Listeners.SecureSocketWithKey is SBX_SOCKET')\n"
    "need(sock.get('SockType', 'stream') == 'stream', 'stream socket')\n"
    "need(p.get('RunAtLoad') is False, 'RunAtLoad false: on demand')\n"
    "need(p.get('KeepAlive') in (False, None), 'KeepAlive off')\n"
    "need('UserName' not in p, 'no UserName: a per-user agent')\n"
    "known = {'Label', 'ProgramArguments', 'Sockets', 'RunAtLoad',\n"
    "         'KeepAlive', 'ProcessType', 'ExitTimeOut'}\n"
    "need(set(p) <= known, 'unknown keys: %s' % sorted(set(p) - known))\n"
    "for b in bad: print(b)\n"
    "sys.exit(1 if bad else 0)\n";

int
main(void)
{
	char *argv[] = { (char *)"python3", (char *)"-c", (char *)script,
	    (char *)PLIST, NULL };
	pid_t pid;
	int st = 0;

	CHECK_INT(posix_spawnp(&pid, "python3", NULL, NULL, argv, environ), 0);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	UNIT_DONE();
}
