/* A classic-BPF interpreter over struct seccomp_data, as the kernel runs a
 * seccomp filter: a unit test asks what a compiled program does to a
 * syscall of any ABI without loading it (and so on any host, or under
 * qemu-user, which does not apply a guest's filter). */
#ifndef SBX_BPF_SIM_H
#define SBX_BPF_SIM_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <string.h>

#define BPF_SIM_BAD	0xdeadbeefu	/* not a program the kernel takes */

/*
 * Runs prog on d and returns the filter's action (SECCOMP_RET_*, data
 * included). Only what seccomp_check_filter() admits is understood; an
 * out-of-range load or jump, a division by zero, a backward jump or an
 * unknown instruction return BPF_SIM_BAD, as does falling off the end.
 * Words are loaded in host byte order, as the kernel does: right for a
 * program of a little-endian ABI run on a little-endian host.
 */
static uint32_t
bpf_sim_run(const struct sock_fprog *prog, const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 }, v;
	unsigned pc;

	if (prog->len == 0 || prog->len > BPF_MAXINSNS)
		return BPF_SIM_BAD;
	for (pc = 0; pc < prog->len; pc++) {
		const struct sock_filter *f = &prog->filter[pc];
		uint32_t k = f->k;

		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
		case BPF_LDX:
			if (f->code == (BPF_LD | BPF_W | BPF_ABS)) {
				if (k % 4 || k > sizeof(*d) - 4)
					return BPF_SIM_BAD;
				memcpy(&a, (const char *)d + k, 4);
			} else if (f->code == (BPF_LD | BPF_W | BPF_LEN))
				a = sizeof(*d);
			else if (f->code == (BPF_LDX | BPF_W | BPF_LEN))
				x = sizeof(*d);
			else if (f->code == (BPF_LD | BPF_IMM))
				a = k;
			else if (f->code == (BPF_LDX | BPF_IMM))
				x = k;
			else if (k >= BPF_MEMWORDS)
				return BPF_SIM_BAD;
			else if (f->code == (BPF_LD | BPF_MEM))
				a = mem[k];
			else if (f->code == (BPF_LDX | BPF_MEM))
				x = mem[k];
			else
				return BPF_SIM_BAD;
			break;
		case BPF_ST:
		case BPF_STX:
			if (k >= BPF_MEMWORDS || BPF_MODE(f->code))
				return BPF_SIM_BAD;
			mem[k] = BPF_CLASS(f->code) == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			v = BPF_SRC(f->code) == BPF_X ? x : k;
			switch (BPF_OP(f->code)) {
			case BPF_ADD: a += v; break;
			case BPF_SUB: a -= v; break;
			case BPF_MUL: a *= v; break;
			case BPF_DIV:
				if (!v)
					return BPF_SIM_BAD;
				a /= v;
				break;
			case BPF_MOD:
				if (!v)
					return BPF_SIM_BAD;
				a %= v;
				break;
			case BPF_AND: a &= v; break;
			case BPF_OR: a |= v; break;
			case BPF_XOR: a ^= v; break;
			case BPF_LSH: a = v < 32 ? a << v : 0; break;
			case BPF_RSH: a = v < 32 ? a >> v : 0; break;
			case BPF_NEG: a = -a; break;
			default: return BPF_SIM_BAD;
			}
			break;
		case BPF_JMP: {
			unsigned jt = f->jt, jf = f->jf;
			int taken;

			v = BPF_SRC(f->code) == BPF_X ? x : k;
			switch (BPF_OP(f->code)) {
			case BPF_JA:
				if (k >= prog->len - pc - 1)
					return BPF_SIM_BAD;
				pc += k;
				continue;
			case BPF_JEQ: taken = a == v; break;
			case BPF_JGT: taken = a > v; break;
			case BPF_JGE: taken = a >= v; break;
			case BPF_JSET: taken = (a & v) != 0; break;
			default: return BPF_SIM_BAD;
			}
			if ((taken ? jt : jf) >= prog->len - pc - 1)
				return BPF_SIM_BAD;
			pc += taken ? jt : jf;
			break;
		}
		case BPF_RET:
			if (f->code == (BPF_RET | BPF_K))
				return k;
			if (f->code == (BPF_RET | BPF_A))
				return a;
			return BPF_SIM_BAD;
		case BPF_MISC:
			if (f->code == (BPF_MISC | BPF_TAX))
				x = a;
			else if (f->code == (BPF_MISC | BPF_TXA))
				a = x;
			else
				return BPF_SIM_BAD;
			break;
		default:
			return BPF_SIM_BAD;
		}
	}
	return BPF_SIM_BAD;
}

#endif
