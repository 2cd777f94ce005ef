/* Removing a tree a sandbox wrote, safely (see rmtree.c). */
#ifndef SBX_RMTREE_H
#define SBX_RMTREE_H

/* Empties and removes directory name of base, depth-first; ".." is checked
 * against the inode it came from at each step up. 0 (also when name is
 * absent) or -errno; -EXDEV: a mount inside. */
int rmtree_at(int base, const char *name);

#endif
