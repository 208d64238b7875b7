/*
 * The JNI half of ShortFloor's "jni" mode: one lgetxattr of a path's security.selinux, called from
 * Java through a library of one function that the JVM loads with System.load. relabel-bench short
 * builds it with cc -O2 -shared into its scratch directory (no binary is kept in the repository), to
 * measure what a JVM program pays to reach the kernel without JNA: the floor of a relabel that would
 * ship a JNI library of its own.
 */
#include <jni.h>
#include <sys/xattr.h>

JNIEXPORT jlong JNICALL Java_ShortFloor_lgetxattr(JNIEnv *env, jclass cls, jbyteArray path, jbyteArray name,
                                                  jbyteArray value) {
  (void) cls;
  jbyte *p = (*env)->GetByteArrayElements(env, path, NULL);
  jbyte *n = (*env)->GetByteArrayElements(env, name, NULL);
  jbyte *v = (*env)->GetByteArrayElements(env, value, NULL);
  ssize_t length = lgetxattr((const char *) p, (const char *) n, v, (size_t) (*env)->GetArrayLength(env, value));
  (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
  (*env)->ReleaseByteArrayElements(env, name, n, JNI_ABORT);
  (*env)->ReleaseByteArrayElements(env, value, v, 0);
  return length;
}
