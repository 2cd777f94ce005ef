/* Byte sizes as policies spell them ("512M", "2 GiB", "1.5G", "1048576"):
 * parsed and printed back, pure. */
#ifndef SBX_POLICY_SIZE_H
#define SBX_POLICY_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* Largest size accepted: 1 PiB, so sums and unit products never wrap. */
#define POLICY_SIZE_MAX (1ULL << 50)

/*
 * s[0..len): decimal digits, optionally a fraction (".5", with a unit),
 * then optionally one space and one of K M G T P (powers of 1024, either
 * case), then optionally "iB" or "B"; a bare number is bytes. No sign, at
 * most POLICY_SIZE_MAX. Returns 0 and
 * sets *out, or -EINVAL with *why saying what is wrong (a static string).
 */
int policy_size_parse(const char *s, size_t len, uint64_t *out,
    const char **why);

/*
 * v in the largest unit that divides it exactly, as policy_size_parse()
 * reads it back: "512M", "2G", "1536K", "100". With human set, spaced and
 * IEC-named for messages: "512 MiB", "100 bytes". Returns the length, or
 * -ENOSPC when buf is too short (it holds a truncated string then).
 */
int policy_size_format(uint64_t v, char *buf, size_t len, int human);

#endif
