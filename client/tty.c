/* Terminal handling for `sbxctl run -t`. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include "client/tty.h"

static struct termios saved;
static bool raw_on;

void
tty_winsize(struct winsize *ws)
{
	if (ioctl(0, TIOCGWINSZ, ws) == 0 && ws->ws_row && ws->ws_col)
		return;
	if (ioctl(1, TIOCGWINSZ, ws) == 0 && ws->ws_row && ws->ws_col)
		return;
	ws->ws_row = 24;
	ws->ws_col = 80;
	ws->ws_xpixel = ws->ws_ypixel = 0;
}

void
tty_restore(void)
{
	if (!raw_on)
		return;
	tcsetattr(0, TCSADRAIN, &saved);
	raw_on = false;
}

int
tty_raw(void)
{
	struct termios t;
	static bool registered;

	if (!isatty(0) || raw_on)
		return 0;
	if (tcgetattr(0, &saved) < 0)
		return -errno;
	t = saved;
	cfmakeraw(&t);
	if (tcsetattr(0, TCSADRAIN, &t) < 0)
		return -errno;
	raw_on = true;
	if (!registered) {
		atexit(tty_restore);
		registered = true;
	}
	return 0;
}

int
tty_openpty(int *master, int *slave)
{
	struct termios t;
	struct winsize ws;
	int m, s;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return -errno;
	if (grantpt(m) < 0 || unlockpt(m) < 0 ||
	    (s = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		int e = -errno;

		close(m);
		return e;
	}
	/* The command should see the modes the user's terminal has (erase
	 * key, flow control...), not pty defaults. */
	if (isatty(0) && tcgetattr(0, &t) == 0)
		tcsetattr(s, TCSANOW, &t);
	tty_winsize(&ws);
	ioctl(m, TIOCSWINSZ, &ws);
	*master = m;
	*slave = s;
	return 0;
}
