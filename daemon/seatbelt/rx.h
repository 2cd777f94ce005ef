/* Regular expressions for Seatbelt rules: literals, byte classes, globs. */
#ifndef SBX_SEATBELT_RX_H
#define SBX_SEATBELT_RX_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/policy/ignore.h"

/*
 * The longest string literal a profile holds, counted as written between
 * the quotes. sandbox-exec refuses a profile with a string over 1025 bytes
 * ("Error reading string"); what does not fit is the generator's problem,
 * never the kernel's.
 */
#define SEATBELT_STR_MAX 1000

/*
 * A regex being built. The dialect is the POSIX ERE subset both Seatbelt
 * and regcomp(REG_EXTENDED) read the same way: ^ $ . * ? | ( ) and
 * bracket expressions without \ [ ] ^ - inside; a literal metacharacter is
 * a backslash and the byte. Paths are matched as bytes.
 *
 * qlen is the length once quoted for SBPL (a backslash, '"' or newline
 * doubles), so a regex that would be refused is known while it is built:
 * over is set and the text is unusable. never is set when a part can match
 * no macOS path (bytes 0xfe/0xff are not UTF-8, an empty class).
 */
struct seatbelt_rx {
	char	 s[SEATBELT_STR_MAX + 1];
	size_t	 len;
	size_t	 qlen;
	bool	 over;
	bool	 never;
};

void	seatbelt_rx_init(struct seatbelt_rx *rx);
/* Appends regex text as is (the caller wrote it). */
void	seatbelt_rx_raw(struct seatbelt_rx *rx, const char *s, size_t n);
void	seatbelt_rx_str(struct seatbelt_rx *rx, const char *s);
void	seatbelt_rx_cat(struct seatbelt_rx *rx, const struct seatbelt_rx *o);
/*
 * Appends bytes matching themselves. fold also matches other ASCII case:
 * on a case-insensitive volume a new ".ZSHRC" is the file ".zshrc".
 */
void	seatbelt_rx_lit(struct seatbelt_rx *rx, const char *s, size_t n,
	    bool fold);
/*
 * One byte of set (bit c & 7 of set[c >> 3]); bytes a macOS path cannot
 * hold are ignored. A class of a glob never matches '/': class drops it.
 */
void	seatbelt_rx_set(struct seatbelt_rx *rx, const unsigned char set[32]);
void	seatbelt_rx_class(struct seatbelt_rx *rx, const unsigned char set[32],
	    bool fold);
/* The tokens of policy/ignore.h, mapped as its header comment says. */
void	seatbelt_rx_toks(struct seatbelt_rx *rx, const struct ignore_tok *tok,
	    size_t ntok, bool fold);
/*
 * "^" and the absolute path, with "(/private)?" in front of /var, /tmp and
 * /etc (and their /private forms): macOS resolves those links before
 * Seatbelt sees a path, but a profile must not depend on which spelling a
 * caller resolved.
 */
void	seatbelt_rx_anchor(struct seatbelt_rx *rx, const char *path, bool fold);
/*
 * "^" and a policy path glob (policy/glob.h: * ? [...] within a
 * component, a whole "**" component for any number of them), to be
 * followed by "(/.*)?$" for what the glob covers.
 */
void	seatbelt_rx_glob(struct seatbelt_rx *rx, const char *glob, bool fold);

/*
 * The other spelling of path through macOS's /var, /tmp and /etc links
 * ("/var/x" <-> "/private/var/x") into out. Returns 1, 0 when there is
 * none, -ENAMETOOLONG.
 */
int	seatbelt_rx_alias(const char *path, char *out, size_t len);

#endif
