/* The built-in rule for secrets in the environment: which client variables
 * are credentials by their name or their value. Pure. */
#ifndef SBX_POLICY_ENVSECRET_H
#define SBX_POLICY_ENVSECRET_H

#include <stdbool.h>

/*
 * Is NAME=value a credential? value may be NULL (the name alone decides
 * then). On true, *why (if why is not NULL) is a static phrase saying which
 * part of the rule matched ("a credential-looking name (TOKEN)", "a URL
 * with a password", ...); it never quotes the value.
 *
 * The rule (docs/security.md, "The environment"), case-insensitive:
 * - the name cut into words at every character that is not a letter or a
 *   digit has a word that contains SECRET, PASSWORD, PASSWD, PASSPHRASE,
 *   CREDENTIAL or COOKIE, ends in TOKEN(S) or KEY(S) (GITHUB_TOKEN,
 *   OPENAI_API_KEY, ACCESSKEY; not TOKENIZERS_PARALLELISM), or is AUTH,
 *   PASS, PAT or PSK;
 * - or the name is a known credential or agent variable: KRB5CCNAME,
 *   XAUTHORITY, SSH_AUTH_SOCK, SSH_AGENT_PID,
 *   GPG_AGENT_INFO, DBUS_SESSION_BUS_ADDRESS (the host's session bus),
 *   NOTIFY_SOCKET, LISTEN_*, JOURNAL_STREAM, SBX_SOCKET;
 * - or the value holds a URL with a password (scheme://user:pass@host), a
 *   PEM private key, or starts as a well-known token does (ghp_, gho_,
 *   ghu_, ghs_, ghr_, github_pat_, glpat-, xox[abps]-, sk-ant-, AKIA with
 *   16 more capitals or digits).
 */
bool envsecret_is(const char *name, const char *value, const char **why);

#endif
