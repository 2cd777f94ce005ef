/* Reload: inotify on the directories of every policy layer file, so edits
 * show in `sbxctl status` at once and new runs see them. */
#ifndef SBX_POLICY_WATCH_H
#define SBX_POLICY_WATCH_H

/* Most workspaces watched at once; the least recently used one goes. */
#define POLICY_WATCH_WORKSPACES 16

/*
 * Watches the user layer's directory (--policy FILE's, or ~/.config/sbx,
 * ~/.config and ~ for ~/.config/sbx/policy.json and ~/.srt-settings.json),
 * the org dir and the pushed-policy store, through the event loop. Without
 * inotify, runs still read the files afresh (policy/store.c); only status
 * waits for the next run. 0 or -errno.
 */
int policy_watch_start(void);

/*
 * Reads every change already queued (so a request sees edits made before
 * it was sent), and watches ws/.sbx (and ws, for .sbx appearing) from now
 * on. Ignore files are the templates' to watch (linux/watch.c).
 */
void policy_watch_workspace(const char *ws);

/* Reads every change already queued (`sbxctl status`). */
void policy_watch_sync(void);

void policy_watch_stop(void);

#endif
