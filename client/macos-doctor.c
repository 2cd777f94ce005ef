/* sbxctl doctor on macOS: no kernel checks yet. The daemon line and the
 * throwaway sandbox (cmd-doctor.c) still prove what Seatbelt enforces. */
#include "client/doctor.h"

void
doctor_host(struct doctor *d, const struct doctor_daemon *dd,
	    const char *dir)
{
	doctor_fix(doctor_add(d, DOCTOR_WARN, "host", "no host checks on "
			      "this platform yet; the sandbox check below "
			      "still runs"), "nothing: read the sandbox lines");
}
