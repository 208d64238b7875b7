/*
 * librelabel: the one function of relabel's own that runs in C, called through JNA by
 * dev.relabel.nativeio.Libc.Own (NativeIo.readDirectoryAhead).
 *
 * Why it exists: a check makes two system calls per entry (statx and the label's getxattrat).
 * Made from Java, each costs a JNA transition and its plumbing on top of the call itself: on a
 * 142k-entry tree, a fifth to a quarter of relabel's wall time at one thread (benchmarks/RESULTS.md,
 * issue 14, sixteenth to eighteenth passes: 1.92-1.96x the C floor through JNA, 1.57x with this
 * function for files, 1.49x with directories too). So for every entry of one getdents64 chunk,
 * this makes those two calls here and packs their results for the Java side to read: one
 * transition per chunk instead of two per entry.
 *
 * It decides nothing: the Java side uses a result only where the walk would have made that very
 * call, and makes the call itself again for any result it does not take as it is (an error other
 * than ENODATA, a label larger than LABEL_MAX), so every error is reported by the one code path
 * that always reported it. A directory's status is read as fts's listing reads it, never
 * triggering an automount (the walk's own statx asks the same); its label only when it is not the
 * root of a mount: whatever is mounted inside the tree, a network filesystem the admin excluded
 * included, is left to the directory's visit, which comes after the exclusions and -x. (A file's
 * label is read where it lies: a file is never an automount point, and the walk already read files
 * mounted over as setfiles does.) Where the listing gives no type (DT_UNKNOWN: ext4 without its
 * filetype feature, XFS without ftype, some network filesystems), the status says it, as it tells
 * the walk.
 *
 * Build: cc -O2 -shared -fPIC (relabel-core's pom.xml). No state, no allocation, reentrant: every
 * worker thread calls it on its own buffers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif
#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x2000
#endif

/* What NativeIo.stat asks statx for (STATX_BASIC_STATS) and how, and the label buffer it reads first. */
#define STATX_MASK 0x7ff
#define STATX_FLAGS (AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT)
#define LABEL_MAX 4096
/* One record's fixed part; the layout is NativeIo.readDirectoryAhead's, field for field. */
#define HEADER 56
/* The label result of an entry whose label is left to its visit (a mount's root; no status). */
#define LABEL_NOT_READ INT32_MIN

struct linux_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* getxattrat's struct xattr_args (Linux 6.13). */
struct xattr_args {
  uint64_t value;
  uint32_t size;
  uint32_t flags;
};

static int is_dot_or_dot_dot(const char *name) {
  return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

/* The label's size, or -errno: getxattrat where the kernel has it, else as NativeIo's fallback. */
static long read_label(int dirfd, const char *name, const char *attribute, int xattr_at, char *value) {
  if (xattr_at) {
    struct xattr_args args = { (uint64_t) (uintptr_t) value, LABEL_MAX, 0 };
    long size = syscall(SYS_getxattrat, dirfd, name, AT_SYMLINK_NOFOLLOW, attribute, &args, sizeof args);
    return size < 0 ? -errno : size;
  }
  /* A kernel before 6.13: the entry opened as a path (never followed), read by its /proc name. */
  int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    return -errno;
  }
  char proc[32];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  long size = getxattr(proc, attribute, value, LABEL_MAX);
  long result = size < 0 ? -errno : size;
  close(fd);
  return result;
}

/*
 * Reads ahead the entries of dirents (length bytes of getdents64 records, dirfd's) from offset
 * start on, skipping "." and "..": for each, in order, one record in out (out_size bytes):
 *
 *   int32  statx result: 0, or the errno it failed with (then no other status field is set)
 *   uint32 stx_mode
 *   uint64 stx_nlink, stx_ino
 *   uint32 stx_dev_major, stx_dev_minor
 *   int64  stx_mtime.tv_sec, stx_ctime.tv_sec
 *   uint32 stx_mtime.tv_nsec
 *   int32  the label's size (its bytes follow, padded to 8), -errno, or LABEL_NOT_READ
 *
 * after an 8-byte header holding the offset of the first record not read (length when all were).
 * It stops early when the next record might not fit. attribute is the NUL-terminated attribute's
 * name; xattr_at whether to use getxattrat. Returns the bytes written, or -EINVAL.
 */
long relabel_read_ahead(int dirfd, const char *dirents, long length, long start, char *out, long out_size,
    const char *attribute, int xattr_at) {
  if (start < 0 || start > length || out_size < 8) {
    return -EINVAL;
  }
  long at = start;
  char *o = out + 8;
  char *limit = out + out_size;
  while (at < length) {
    const struct linux_dirent64 *entry = (const struct linux_dirent64 *) (dirents + at);
    if (!is_dot_or_dot_dot(entry->d_name)) {
      if (limit - o < HEADER + LABEL_MAX) {
        break;
      }
      memset(o, 0, HEADER);
      struct statx status;
      int stat_failed = statx(dirfd, entry->d_name, STATX_FLAGS, STATX_MASK, &status) < 0;
      if (stat_failed) {
        *(int32_t *) o = errno;
      } else {
        *(uint32_t *) (o + 4) = status.stx_mode;
        *(uint64_t *) (o + 8) = status.stx_nlink;
        *(uint64_t *) (o + 16) = status.stx_ino;
        *(uint32_t *) (o + 24) = status.stx_dev_major;
        *(uint32_t *) (o + 28) = status.stx_dev_minor;
        *(int64_t *) (o + 32) = status.stx_mtime.tv_sec;
        *(int64_t *) (o + 40) = status.stx_ctime.tv_sec;
        *(uint32_t *) (o + 48) = status.stx_mtime.tv_nsec;
      }
      /* The type as the status says, whatever the listing said (or did not). A mount's root of
         any type is read at the visit: a file bind-mounted onto a name in the tree is also reached
         through its own name, through which it may be written before this name is visited (a
         directory's root label is also its mounted filesystem's, not the mount point's). statx
         says so since Linux 5.8; before, the listing's inode, the covered one, tells a mounted file
         (a filesystem whose listing numbers entries otherwise, as overlayfs may, is read at the
         visit: slower, never wrong). */
      if (stat_failed || (status.stx_attributes & STATX_ATTR_MOUNT_ROOT) || entry->d_ino != status.stx_ino
          || (S_ISDIR(status.stx_mode) && !(status.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))) {
        /* No status (the walk then reads neither ahead), or a mount's root, or a directory on a
           kernel that cannot tell one (before 5.8): read at the visit. */
        *(int32_t *) (o + 52) = LABEL_NOT_READ;
        o += HEADER;
        at += entry->d_reclen;
        continue;
      }
      long size = read_label(dirfd, entry->d_name, attribute, xattr_at, o + HEADER);
      *(int32_t *) (o + 52) = (int32_t) size;
      o += HEADER + (size > 0 ? (size + 7) & ~7L : 0);
    }
    at += entry->d_reclen;
  }
  *(int64_t *) out = at;
  return o - out;
}
