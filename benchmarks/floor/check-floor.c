/*
 * check-floor: the syscall floor of a label check (issue 14). It walks TREE making only the
 * system calls a check cannot avoid, and nothing else: per directory openat(O_RDONLY |
 * O_DIRECTORY | O_NOFOLLOW), getdents64 to the end and close; per entry (the root included)
 * fstatat(AT_SYMLINK_NOFOLLOW) and a read of security.selinux relative to the directory's
 * descriptor (getxattrat, Linux 6.13+). No policy, no matching, no output per entry.
 * With -w LABEL it is the floor of a relabel: each entry's label is then also written, LABEL for
 * every one (setxattrat, the value with its NUL as setfiles writes it).
 * It prints the number of entries (as `find TREE | wc -l` counts them) on stdout, and on stderr
 * which label call it used: where getxattrat is missing (ENOSYS) it reads (and writes) labels
 * with lgetxattr (lsetxattr) on the full path instead, as a check on an older kernel must.
 *
 * With -T N, N threads share the directories: a directory is opened by the thread that finds it
 * and pushed on one stack (a mutex, taken once per directory); any idle thread pops and lists it.
 * That is the least a parallel check must do, so its -T N over -T 1 is what this machine's
 * kernel and cores allow a walk's speed-up to be (issue 14's goal 3 asks relabel's walk for 1.9x).
 * -T 1 runs the same code on one thread.
 *
 * relabel-bench scaling --floor builds it with `cc -O2 -pthread` and runs it beside the tools.
 * Usage: check-floor [-T N] [-w LABEL] TREE. Exit status 0, 1 if some entry could not be read
 * or written (reported), 2 for a bad command line.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef SYS_getxattrat
#define SYS_getxattrat 464 /* the same number on x86_64 and aarch64 (the unified syscall table) */
#endif
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif

struct xattr_args { uint64_t value; uint32_t size; uint32_t flags; }; /* <linux/xattr.h>, 6.13 */

/* A directory found and opened, waiting to be listed. */
struct job { int fd; char *path; };

static struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  struct job *jobs;
  size_t count, capacity;
  int busy; /* threads listing a directory: while any is, more jobs may come */
} stack = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0 };

static int use_getxattrat = 1;
/* -w: the label every entry gets, and its size with the NUL; NULL for a check. */
static const char *written;
static size_t written_size;
static unsigned long long entries;
static int failed;

static void problem(const char *path, const char *what) {
  int error = errno;
  flockfile(stderr);
  fprintf(stderr, "check-floor: %s: %s: %s\n", path, what, strerror(error));
  funlockfile(stderr);
  __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
}

/* One entry: its status and its label. `path` is only for messages and the lgetxattr fallback. */
static void check(int dfd, const char *name, const char *path, struct stat *st, char *label, size_t size) {
  if (fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) != 0) {
    problem(path, "fstatat");
    st->st_mode = 0;
    return;
  }
  if (__atomic_load_n(&use_getxattrat, __ATOMIC_RELAXED)) {
    struct xattr_args args = { (uintptr_t) label, (uint32_t) size, 0 };
    if (syscall(SYS_getxattrat, dfd, name, AT_SYMLINK_NOFOLLOW, "security.selinux", &args, sizeof args) >= 0
        || errno == ENODATA) {
      struct xattr_args set = { (uintptr_t) written, (uint32_t) written_size, 0 };
      if (written != NULL
          && syscall(SYS_setxattrat, dfd, name, AT_SYMLINK_NOFOLLOW, "security.selinux", &set, sizeof set) != 0) {
        problem(path, "setxattrat");
      }
      return;
    }
    if (errno != ENOSYS) {
      problem(path, "getxattrat");
      return;
    }
    if (__atomic_exchange_n(&use_getxattrat, 0, __ATOMIC_RELAXED)) {
      fprintf(stderr, "check-floor: getxattrat: ENOSYS, reading labels with lgetxattr on full paths\n");
    }
  }
  if (lgetxattr(path, "security.selinux", label, size) < 0 && errno != ENODATA) {
    problem(path, "lgetxattr");
    return;
  }
  if (written != NULL && lsetxattr(path, "security.selinux", written, written_size, 0) != 0) {
    problem(path, "lsetxattr");
  }
}

static void push(int fd, char *path) {
  pthread_mutex_lock(&stack.lock);
  if (stack.count == stack.capacity) {
    stack.capacity = stack.capacity ? 2 * stack.capacity : 1024;
    stack.jobs = realloc(stack.jobs, stack.capacity * sizeof *stack.jobs);
    if (stack.jobs == NULL) {
      perror("check-floor: realloc");
      exit(1);
    }
  }
  stack.jobs[stack.count++] = (struct job) { fd, path };
  pthread_cond_signal(&stack.changed);
  pthread_mutex_unlock(&stack.lock);
}

/* The next directory to list, or 0 when every directory has been listed. */
static int pop(struct job *job) {
  pthread_mutex_lock(&stack.lock);
  while (stack.count == 0 && stack.busy > 0) {
    pthread_cond_wait(&stack.changed, &stack.lock);
  }
  int found = stack.count > 0;
  if (found) {
    *job = stack.jobs[--stack.count];
    stack.busy++;
  } else {
    pthread_cond_broadcast(&stack.changed);
  }
  pthread_mutex_unlock(&stack.lock);
  return found;
}

static void done(void) {
  pthread_mutex_lock(&stack.lock);
  if (--stack.busy == 0 && stack.count == 0) {
    pthread_cond_broadcast(&stack.changed);
  }
  pthread_mutex_unlock(&stack.lock);
}

/* Lists one opened directory: checks each entry, opens and pushes each subdirectory. */
static unsigned long long list(struct job job, char *buf, size_t size, char *label) {
  unsigned long long seen = 0;
  size_t length = strlen(job.path);
  long n;
  while ((n = syscall(SYS_getdents64, job.fd, buf, size)) > 0) {
    for (long at = 0; at < n;) {
      struct dirent64 *d = (struct dirent64 *) (buf + at);
      at += d->d_reclen;
      if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) {
        continue;
      }
      char *child = malloc(length + strlen(d->d_name) + 2);
      sprintf(child, "%s/%s", job.path, d->d_name);
      struct stat st;
      seen++;
      check(job.fd, d->d_name, child, &st, label, 4096);
      if (S_ISDIR(st.st_mode)) {
        int fd = openat(job.fd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
          push(fd, child);
          continue;
        }
        problem(child, "openat");
      }
      free(child);
    }
  }
  if (n < 0) {
    problem(job.path, "getdents64");
  }
  close(job.fd);
  free(job.path);
  return seen;
}

static void *worker(void *unused) {
  (void) unused;
  char *buf = malloc(32768);
  char label[4096];
  unsigned long long seen = 0;
  struct job job;
  while (pop(&job)) {
    seen += list(job, buf, 32768, label);
    done();
  }
  free(buf);
  __atomic_fetch_add(&entries, seen, __ATOMIC_RELAXED);
  return NULL;
}

int main(int argc, char **argv) {
  int threads = 1;
  int option;
  while ((option = getopt(argc, argv, "+T:w:")) != -1) {
    if (option == 'T') {
      char *end;
      long n = strtol(optarg, &end, 10);
      threads = *end == '\0' && n >= 1 && n <= 1024 ? (int) n : 0;
    } else if (option == 'w') {
      written = optarg;
      written_size = strlen(optarg) + 1;
    } else {
      threads = 0;
    }
  }
  if (optind != argc - 1 || threads < 1) {
    fprintf(stderr, "usage: check-floor [-T N] [-w LABEL] TREE\n");
    return 2;
  }
  /* Every directory found but not yet listed holds a descriptor: a wide directory of
   * directories may hold thousands at once. */
  struct rlimit files;
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  const char *root = argv[optind];
  struct stat st;
  char label[4096];
  entries = 1;
  check(AT_FDCWD, root, root, &st, label, sizeof label);
  if (S_ISDIR(st.st_mode)) {
    int fd = openat(AT_FDCWD, root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      problem(root, "openat");
    } else {
      push(fd, strdup(root));
      pthread_t *ids = calloc(threads, sizeof *ids);
      for (int i = 1; i < threads; i++) {
        if (pthread_create(&ids[i], NULL, worker, NULL) != 0) {
          fprintf(stderr, "check-floor: cannot start thread %d\n", i + 1);
          return 1;
        }
      }
      worker(NULL);
      for (int i = 1; i < threads; i++) {
        pthread_join(ids[i], NULL);
      }
      free(ids);
    }
  }
  if (__atomic_load_n(&use_getxattrat, __ATOMIC_RELAXED)) {
    fprintf(stderr, "check-floor: labels read%s with %s relative to each directory's descriptor\n",
        written == NULL ? "" : " and written", written == NULL ? "getxattrat" : "getxattrat and setxattrat");
  }
  printf("%llu\n", entries);
  return failed;
}
