/* The client's terminal: raw mode on the way in, restored on every way
 * out, and the pty it hands to the sandbox. */
#ifndef SBX_TTY_H
#define SBX_TTY_H

#include <stdbool.h>
#include <sys/ioctl.h>

/* Current size of the terminal on fd 0 (or 1), else 24x80. */
void tty_winsize(struct winsize *ws);

/* Puts fd 0 in raw mode when it is a terminal; tty_restore() undoes it
 * (also registered with atexit). */
int tty_raw(void);
void tty_restore(void);

/* A new pty pair: *master for us, *slave for the sandbox, with the slave
 * set up like our terminal (modes and size). */
int tty_openpty(int *master, int *slave);

#endif
