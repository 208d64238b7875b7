/*
 * The JNI half of WalkFloor's "jni" mode: check-floor.c's system calls, one JNI function each,
 * taking Java arrays (names NUL-terminated, as getdents gave them) and returning -errno on
 * failure. A name is copied into a stack buffer with one GetByteArrayRegion, a listing or a label
 * copied back with one SetByteArrayRegion: what a relabel with a JNI library of its own would pay
 * per call. relabel-bench builds it with cc -O2 -shared into its scratch directory (no binary is
 * kept in the repository).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#define SYS_setxattrat_ 463 /* the same numbers on x86_64 and aarch64 (the unified syscall table) */
#define SYS_getxattrat_ 464
#define LISTING 32768
#define LABEL 4096

struct xattr_args { uint64_t value; uint32_t size; uint32_t flags; };

/* A Java array's bytes in buf (up to size, which holds any name or path the floor passes). */
static int copy_in(JNIEnv *env, jbyteArray array, char *buf, jsize size) {
  jsize length = (*env)->GetArrayLength(env, array);
  if (length > size) {
    return -ENAMETOOLONG;
  }
  (*env)->GetByteArrayRegion(env, array, 0, length, (jbyte *) buf);
  return length;
}

JNIEXPORT jint JNICALL Java_WalkFloor_00024Jni_openDirectory0(JNIEnv *env, jclass cls, jint dirfd, jbyteArray name) {
  (void) cls;
  char n[4096];
  if (copy_in(env, name, n, sizeof n) < 0) {
    return -ENAMETOOLONG;
  }
  int fd = openat(dirfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

JNIEXPORT jint JNICALL Java_WalkFloor_00024Jni_list0(JNIEnv *env, jclass cls, jint fd, jbyteArray into) {
  (void) cls;
  char buf[LISTING];
  long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
  if (n < 0) {
    return -errno;
  }
  (*env)->SetByteArrayRegion(env, into, 0, (jsize) n, (const jbyte *) buf);
  return (jint) n;
}

JNIEXPORT jint JNICALL Java_WalkFloor_00024Jni_mode0(JNIEnv *env, jclass cls, jint dirfd, jbyteArray name) {
  (void) cls;
  char n[4096];
  struct stat st;
  if (copy_in(env, name, n, sizeof n) < 0) {
    return -ENAMETOOLONG;
  }
  return fstatat(dirfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0 ? -errno : (jint) st.st_mode;
}

JNIEXPORT jlong JNICALL Java_WalkFloor_00024Jni_getLabel0(JNIEnv *env, jclass cls, jint dirfd, jbyteArray name,
                                                          jbyteArray into) {
  (void) cls;
  char n[4096];
  char label[LABEL];
  if (copy_in(env, name, n, sizeof n) < 0) {
    return -ENAMETOOLONG;
  }
  struct xattr_args args = { (uintptr_t) label, 256, 0 };
  long length = syscall(SYS_getxattrat_, dirfd, n, AT_SYMLINK_NOFOLLOW, "security.selinux", &args, sizeof args);
  if (length < 0) {
    return -errno;
  }
  (*env)->SetByteArrayRegion(env, into, 0, (jsize) length, (const jbyte *) label);
  return length;
}

JNIEXPORT jint JNICALL Java_WalkFloor_00024Jni_setLabel0(JNIEnv *env, jclass cls, jint dirfd, jbyteArray name,
                                                         jbyteArray value) {
  (void) cls;
  char n[4096];
  char v[LABEL];
  int length = copy_in(env, value, v, sizeof v);
  if (copy_in(env, name, n, sizeof n) < 0 || length < 0) {
    return -ENAMETOOLONG;
  }
  struct xattr_args args = { (uintptr_t) v, (uint32_t) length, 0 };
  return syscall(SYS_setxattrat_, dirfd, n, AT_SYMLINK_NOFOLLOW, "security.selinux", &args, sizeof args) != 0
      ? -errno : 0;
}

JNIEXPORT jlong JNICALL Java_WalkFloor_00024Jni_getLabelByPath0(JNIEnv *env, jclass cls, jbyteArray path,
                                                                jbyteArray into) {
  (void) cls;
  char p[4096];
  char label[LABEL];
  if (copy_in(env, path, p, sizeof p) < 0) {
    return -ENAMETOOLONG;
  }
  ssize_t length = lgetxattr(p, "security.selinux", label, sizeof label);
  if (length < 0) {
    return -errno;
  }
  (*env)->SetByteArrayRegion(env, into, 0, (jsize) length, (const jbyte *) label);
  return length;
}

JNIEXPORT jint JNICALL Java_WalkFloor_00024Jni_setLabelByPath0(JNIEnv *env, jclass cls, jbyteArray path,
                                                               jbyteArray value) {
  (void) cls;
  char p[4096];
  char v[LABEL];
  int length = copy_in(env, value, v, sizeof v);
  if (copy_in(env, path, p, sizeof p) < 0 || length < 0) {
    return -ENAMETOOLONG;
  }
  return lsetxattr(p, "security.selinux", v, (size_t) length, 0) != 0 ? -errno : 0;
}

JNIEXPORT void JNICALL Java_WalkFloor_00024Jni_close0(JNIEnv *env, jclass cls, jint fd) {
  (void) env;
  (void) cls;
  close(fd);
}
