/*
 * check-floor: the syscall floor of a label check (issue 14). It walks TREE making only the
 * system calls a check cannot avoid, and nothing else: per directory openat(O_RDONLY |
 * O_DIRECTORY | O_NOFOLLOW), getdents64 to the end and close; per entry (the root included)
 * fstatat(AT_SYMLINK_NOFOLLOW) and a read of security.selinux relative to the directory's
 * descriptor (getxattrat, Linux 6.13+). No policy, no matching, no output per entry, one thread.
 * It prints the number of entries (as `find TREE | wc -l` counts them) on stdout, and on stderr
 * which label call it used: where getxattrat is missing (ENOSYS) it reads labels with lgetxattr
 * on the full path instead, as a check on an older kernel must.
 *
 * relabel-bench scaling --floor builds it with `cc -O2` and runs it beside the tools.
 * Usage: check-floor TREE. Exit status 0, or 1 if some entry could not be read (reported).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef SYS_getxattrat
#define SYS_getxattrat 464 /* the same number on x86_64 and aarch64 (the unified syscall table) */
#endif

struct xattr_args { uint64_t value; uint32_t size; uint32_t flags; }; /* <linux/xattr.h>, 6.13 */

static int use_getxattrat = 1;
static unsigned long long entries;
static int failed;
static char label[4096];

static void problem(const char *path, const char *what) {
  fprintf(stderr, "check-floor: %s: %s: %s\n", path, what, strerror(errno));
  failed = 1;
}

/* One entry: its status and its label. `path` is only for messages and the lgetxattr fallback. */
static void check(int dfd, const char *name, const char *path, struct stat *st) {
  entries++;
  if (fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) != 0) {
    problem(path, "fstatat");
    st->st_mode = 0;
    return;
  }
  if (use_getxattrat) {
    struct xattr_args args = { (uintptr_t) label, sizeof label, 0 };
    if (syscall(SYS_getxattrat, dfd, name, AT_SYMLINK_NOFOLLOW, "security.selinux", &args, sizeof args) >= 0
        || errno == ENODATA) {
      return;
    }
    if (errno != ENOSYS) {
      problem(path, "getxattrat");
      return;
    }
    use_getxattrat = 0;
    fprintf(stderr, "check-floor: getxattrat: ENOSYS, reading labels with lgetxattr on full paths\n");
  }
  if (lgetxattr(path, "security.selinux", label, sizeof label) < 0 && errno != ENODATA) {
    problem(path, "lgetxattr");
  }
}

/* Everything beneath the directory `name` of `dfd` (already checked), depth first. */
static void walk(int dfd, const char *name, const char *path) {
  int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    problem(path, "openat");
    return;
  }
  char *buf = malloc(32768);
  size_t length = strlen(path);
  long n;
  while ((n = syscall(SYS_getdents64, fd, buf, 32768)) > 0) {
    for (long at = 0; at < n;) {
      struct dirent64 *d = (struct dirent64 *) (buf + at);
      at += d->d_reclen;
      if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) {
        continue;
      }
      char *child = malloc(length + strlen(d->d_name) + 2);
      sprintf(child, "%s/%s", path, d->d_name);
      struct stat st;
      check(fd, d->d_name, child, &st);
      if (S_ISDIR(st.st_mode)) {
        walk(fd, d->d_name, child);
      }
      free(child);
    }
  }
  if (n < 0) {
    problem(path, "getdents64");
  }
  free(buf);
  close(fd);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: check-floor TREE\n");
    return 2;
  }
  struct stat st;
  check(AT_FDCWD, argv[1], argv[1], &st);
  if (S_ISDIR(st.st_mode)) {
    walk(AT_FDCWD, argv[1], argv[1]);
  }
  if (use_getxattrat) {
    fprintf(stderr, "check-floor: labels read with getxattrat relative to each directory's descriptor\n");
  }
  printf("%llu\n", entries);
  return failed;
}
