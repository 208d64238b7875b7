/*
 * seccomp-eperm NR[,NR...] COMMAND [ARG...]: runs COMMAND with the system calls numbered NR failing
 * with EPERM, as a container runtime's seccomp profile answers a call it does not know (moby's
 * default action). Built by SeccompIT with gcc into its scratch directory; never installed.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: seccomp-eperm NR[,NR...] COMMAND [ARG...]\n");
    return 2;
  }
  struct sock_filter filter[130];
  unsigned short n = 0;
  filter[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  for (char *number = strtok(argv[1], ","); number != NULL && n < 126; number = strtok(NULL, ",")) {
    filter[n++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned) atoi(number), 0, 1);
    filter[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
  }
  filter[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog program = {.len = n, .filter = filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
    perror("seccomp-eperm: prctl");
    return 126;
  }
  execvp(argv[2], argv + 2);
  perror("seccomp-eperm: execvp");
  return 127;
}
