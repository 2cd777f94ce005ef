/* One proxied socket: buffered, written at once when it can be, read while wanted. */
#ifndef SBX_PROXY_IO_H
#define SBX_PROXY_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct evbuffer;
struct pconn;
struct pio;

/* What happened, for pio_ops.event. */
#define PIO_EOF		0x1	/* the peer ended its side */
#define PIO_ERROR	0x2	/* errno-like code in pio_error() */
#define PIO_CONNECTED	0x4
#define PIO_TIMEOUT	0x8	/* connect did not finish in time */

/*
 * Callbacks into the protocol that owns the socket; they may close the
 * pconn (which frees the pio) and must then return at once.
 */
struct pio_ops {
	/* New bytes are in pio_in() (or, raw, the socket is readable). */
	void (*read)(struct pconn *pc, struct pio *p);
	/* What was queued fell to the low mark (0 unless set). */
	void (*drained)(struct pconn *pc, struct pio *p);
	void (*event)(struct pconn *pc, struct pio *p, int what);
};

/*
 * Takes fd (non-blocking, or made so); -1 for a socket pio_connect() will
 * make. Reading starts off. NULL on ENOMEM (fd is then closed).
 */
struct pio *pio_new(int fd, struct pconn *pc);
/* Closes and frees; allowed from p's own callbacks (pio touches nothing
 * after calling back, and libevent allows freeing a running event). */
void pio_free(struct pio *p);
void pio_set_ops(struct pio *p, const struct pio_ops *ops);
/* The peer is on this host's loopback (every client is, and an upstream
 * on a loopback address): no pacing. */
void pio_loopback(struct pio *p);

struct evbuffer *pio_in(struct pio *p);
struct evbuffer *pio_out(struct pio *p);
/* Bytes queued for writing. */
size_t pio_pending(const struct pio *p);
int pio_error(const struct pio *p);

/* Reading on or off; raw: ops->read is told the socket is readable and
 * reads it itself (splice). */
void pio_read(struct pio *p, bool on);
void pio_raw(struct pio *p, bool raw);
/* A read filled its buffer (READ_MIN): bulk is flowing, not small
 * messages (for those a splice costs more than a copy). */
bool pio_bulk(const struct pio *p);
/* ops->drained is called when the queue falls to at most low bytes. */
void pio_low_mark(struct pio *p, size_t low);

/* Queues bytes and writes what the socket takes now; errors are reported
 * through ops->event from the loop, never from inside these. */
void pio_write(struct pio *p, const void *data, size_t len);
void pio_write_buffer(struct pio *p, struct evbuffer *buf);
/* Writes what is queued now (after adding to pio_out() directly). */
void pio_flush(struct pio *p);
/* Ends our side once the queue is written. */
void pio_shutdown(struct pio *p);

/*
 * Socket to socket inside the kernel (splice through a pipe), for bulk
 * bytes that need no looking at. A pipe starts at the kernel's default
 * size and grows to PIO_SPLICE_MAX the first time a splice fills it: a
 * quiet connection keeps a small pipe, a bulk one moves up to a megabyte
 * per call and per wake-up (a third of the splices and epoll_waits of
 * 256 KiB pipes, and about 40% less of sbxd's CPU per byte).
 */
struct pio_pipe {
	int fd[2];		/* -1 until pio_pipe_open */
	size_t held;		/* what sits in the pipe */
	size_t size;		/* its capacity */
	bool filled;		/* the last splice in (nearly) filled it */
	bool grown;		/* growing it was tried */
};

/* Most one pio_splice_in moves; the size a pipe grows to (the default
 * fs.pipe-max-size: beyond it unprivileged callers get EPERM). */
#define PIO_SPLICE_MAX (1024 * 1024)

void pio_pipe_init(struct pio_pipe *pp);
/* 0, or -errno (no pipe: stay on the buffered path). */
int pio_pipe_open(struct pio_pipe *pp);
void pio_pipe_close(struct pio_pipe *pp);
/* Up to max bytes from src's socket into the pipe: the count, 0 at the
 * end of src, -EAGAIN when nothing is there, or -errno. Unless
 * pp->filled, the socket had no more. */
ssize_t pio_splice_in(struct pio *src, struct pio_pipe *pp, size_t max);
/* The pipe out to dst's socket: 0 once empty; -EAGAIN when dst is full
 * (ops->drained of dst follows when it can take more); or -errno. */
int pio_splice_out(struct pio *dst, struct pio_pipe *pp);

/* A non-blocking connect; ops->event gets CONNECTED, ERROR or TIMEOUT. */
int pio_connect(struct pio *p, const struct sockaddr *sa, socklen_t len,
    unsigned timeout_ms);
/* The same with fd, a socket made elsewhere (in a sandbox's network
 * namespace), which p takes even on failure. */
int pio_connect_fd(struct pio *p, int fd, const struct sockaddr *sa,
    socklen_t len, unsigned timeout_ms);

#endif
