/*
 * no_namespaces.c - runs a command where namespaces and mounts are refused,
 * as in a container under Docker's default seccomp profile (Gradescope's
 * autograder, for one): unshare, setns, mount, umount2 and pivot_root fail
 * with EPERM, clone with any namespace flag too, and clone3 with ENOSYS (so
 * that the C library falls back to clone, whose flags a filter can see).
 *
 *     no_namespaces COMMAND [ARG...]
 *
 * A test program of the kit's (grader/tests/), compiled by the tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NAMESPACE_FLAGS                                                                                   \
    (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP)

#define REFUSE(nr, err)                                                                                   \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: no_namespaces COMMAND [ARG...]\n");
        return 2;
    }
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), /* another architecture: not filtered */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        REFUSE(__NR_unshare, EPERM),
        REFUSE(__NR_setns, EPERM),
        REFUSE(__NR_mount, EPERM),
        REFUSE(__NR_umount2, EPERM),
        REFUSE(__NR_pivot_root, EPERM),
        REFUSE(__NR_clone3, ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NAMESPACE_FLAGS, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = { (unsigned short)(sizeof filter / sizeof filter[0]), filter };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        fprintf(stderr, "no_namespaces: cannot install the filter: %s\n", strerror(errno));
        return 2;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no_namespaces: cannot run %s: %s\n", argv[1], strerror(errno));
    return 127;
}
