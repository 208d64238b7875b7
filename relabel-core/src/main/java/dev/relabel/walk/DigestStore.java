package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.report.RelabelListener;
import dev.relabel.nativeio.NativeIoException;
import java.io.IOException;
import java.util.List;

/**
 * Stores directory digests once a root has been labelled. The walk keeps no descriptor open for
 * this: each directory is reached again from the root ({@link Revisit}) and written only if it is
 * still the directory (device and inode) the walk labelled.
 */
final class DigestStore {
  /** {@code TMPFS_MAGIC}, {@code RAMFS_MAGIC}, {@code SYSFS_MAGIC}: libselinux keeps no digest there. */
  private static final long TMPFS = 0x01021994L;
  private static final long RAMFS = 0x858458f6L;
  private static final long SYSFS = 0x62656572L;

  /** A directory the walk labelled, and the digest it is to get. */
  record Pending(byte[] path, long device, long inode, byte[] digest) implements Revisit.Entry {}

  private DigestStore() {}

  static boolean isVolatile(long filesystemType) {
    long type = filesystemType & 0xffffffffL;
    return type == TMPFS || type == RAMFS || type == SYSFS;
  }

  static void store(FileTree tree, byte[] root, List<Pending> pending, RelabelListener listener) {
    Revisit.visit(tree, root, pending,
        (holder, name, directory) -> holder.setDigest(name, directory.digest(), directory.path()), (path, e) -> listener.warned("setxattr failed: " + PathBytes.text(path) + ": " + reason(e)));
  }

  private static String reason(IOException e) {
    return e instanceof NativeIoException n ? n.describe() : String.valueOf(e.getMessage());
  }
}
