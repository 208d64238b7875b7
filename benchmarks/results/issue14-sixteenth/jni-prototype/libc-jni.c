/*
 * A measurement prototype, not relabel's code: the five calls a walk makes per entry and per
 * directory (openat, close, getdents64, statx, and syscall(2) for getxattrat/setxattrat/openat2),
 * as JNI functions of dev.relabel.nativeio.Libc$Jni taking the same native addresses relabel's
 * JNA direct mapping takes. A failed call returns -errno. Built with cc -O2 -shared -fPIC.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <string.h>

#define P(x) ((void *) (intptr_t) (x))

JNIEXPORT jint JNICALL Java_dev_relabel_nativeio_Libc_00024Jni_openat(JNIEnv *e, jclass c, jint dirfd, jlong path,
    jint flags, jint mode) {
  int r = openat(dirfd, P(path), flags, mode);
  return r < 0 ? -errno : r;
}

JNIEXPORT jint JNICALL Java_dev_relabel_nativeio_Libc_00024Jni_close(JNIEnv *e, jclass c, jint fd) {
  int r = close(fd);
  return r < 0 ? -errno : r;
}

JNIEXPORT jlong JNICALL Java_dev_relabel_nativeio_Libc_00024Jni_getdents64(JNIEnv *e, jclass c, jint fd, jlong buffer,
    jlong size) {
  long r = syscall(SYS_getdents64, fd, P(buffer), (size_t) size);
  return r < 0 ? -errno : r;
}

JNIEXPORT jint JNICALL Java_dev_relabel_nativeio_Libc_00024Jni_statx(JNIEnv *e, jclass c, jint dirfd, jlong path,
    jint flags, jint mask, jlong buffer) {
  int r = statx(dirfd, P(path), flags, (unsigned) mask, P(buffer));
  return r < 0 ? -errno : r;
}

JNIEXPORT jlong JNICALL Java_dev_relabel_nativeio_Libc_00024Jni_syscall__JIJIJJJ(JNIEnv *e, jclass c, jlong number,
    jint dirfd, jlong path, jint atFlags, jlong name, jlong args, jlong size) {
  long r = syscall(number, dirfd, P(path), atFlags, P(name), P(args), (size_t) size);
  return r < 0 ? -errno : r;
}

JNIEXPORT jlong JNICALL Java_dev_relabel_nativeio_Libc_00024Jni_syscall__JIJJJ(JNIEnv *e, jclass c, jlong number,
    jint dirfd, jlong path, jlong how, jlong size) {
  long r = syscall(number, dirfd, P(path), P(how), (size_t) size);
  return r < 0 ? -errno : r;
}

/*
 * The batched prototype: for every entry of one getdents64 chunk (the records at dirents, length
 * bytes) but "." and "..", its statx and its
 * security.selinux (getxattrat, not following a symlink), packed into out as 48-byte headers
 * each followed by the label, padded to 8 bytes: int32 stat result (0, -errno, or 1 when not
 * statted), uint32 mode, uint64 nlink, inode, device (major << 32 | minor), int64 mtime seconds,
 * int32 mtime nanoseconds, int32 label size or -errno. Returns the bytes written, or -ENOBUFS.
 */
struct dirent64 { uint64_t d_ino; int64_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[]; };
struct xattr_args_ { uint64_t value; uint32_t size; uint32_t flags; };

JNIEXPORT jlong JNICALL Java_dev_relabel_nativeio_Libc_00024Jni_scan(JNIEnv *e, jclass c, jint dirfd, jlong dirents,
    jlong length, jlong out, jlong outSize, jlong attribute) {
  char *p = P(dirents), *end = p + length, *o = P(out), *limit = o + outSize;
  while (p < end) {
    struct dirent64 *d = (struct dirent64 *) p;
    p += d->d_reclen;
    if (d->d_name[0] == '.' && (d->d_name[1] == 0 || (d->d_name[1] == '.' && d->d_name[2] == 0))) {
      continue;
    }
    if (limit - o < 48 + 256) {
      return -ENOBUFS;
    }
    int32_t *h = (int32_t *) o;
    memset(o, 0, 48);
    {
      struct statx sx;
      if (statx(dirfd, d->d_name, AT_SYMLINK_NOFOLLOW, 0x7ff, &sx) < 0) {
        h[0] = -errno;
      } else {
        h[1] = sx.stx_mode;
        *(uint64_t *) (o + 8) = sx.stx_nlink;
        *(uint64_t *) (o + 16) = sx.stx_ino;
        *(uint64_t *) (o + 24) = (uint64_t) sx.stx_dev_major << 32 | sx.stx_dev_minor;
        *(int64_t *) (o + 32) = sx.stx_mtime.tv_sec;
        h[10] = (int32_t) sx.stx_mtime.tv_nsec;
      }
    }
    size_t room = (size_t) (limit - o - 48);
    struct xattr_args_ args = { (uint64_t) (intptr_t) (o + 48), (uint32_t) (room < 4096 ? room : 4096), 0 };
    long n = syscall(464, dirfd, d->d_name, AT_SYMLINK_NOFOLLOW, P(attribute), &args, sizeof args);
    h[11] = n < 0 ? -errno : (int32_t) n;
    o += 48 + (n > 0 ? ((n + 7) & ~7L) : 0);
  }
  return o - (char *) P(out);
}
