package dev.relabel.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a compiled policy remembers of one of the files it was compiled from ({@code file_contexts}
 * or one of its siblings), to tell later whether that file still holds what was compiled.
 *
 * <p>A load first compares the file's identity and times ({@code stat}: device, inode, size,
 * modification and change times): any write changes the change time, which no one can set back.
 * When they differ (a copied or restored policy, a touched file) it reads the file and compares
 * SHA-256 digests, so a stamp is never trusted on times alone when they moved. As git does for its
 * index, a stamp taken within {@link #RACY_NANOS} of the file's last change is marked racy (a
 * second write in the same clock tick could leave the times unchanged) and always compared by
 * digest.
 *
 * @param suffix which sibling: {@code ""} for {@code file_contexts} itself, {@code ".local"}, ...
 * @param present whether the file existed
 * @param size its size in bytes (0 when absent)
 * @param device {@code st_dev}
 * @param inode {@code st_ino}
 * @param modifiedNanos {@code st_mtim}, in nanoseconds since the epoch
 * @param changedNanos {@code st_ctim}, in nanoseconds since the epoch
 * @param racy whether only the digest may decide (see above)
 * @param sha256 the digest of the bytes that were compiled (empty when absent)
 */
record SourceStamp(String suffix, boolean present, long size, long device, long inode, long modifiedNanos,
    long changedNanos, boolean racy, byte[] sha256) {
  /** The window of a change time's clock tick, and then some. */
  static final long RACY_NANOS = TimeUnit.SECONDS.toNanos(2);

  /** The siblings a policy is loaded from, in the order a compiled policy lists them. */
  static final String[] SUFFIXES = {"", ".homedirs", ".local", ".subs", ".subs_dist"};

  SourceStamp {
    sha256 = sha256.clone();
  }

  /** The file's identity and times now, before it is read; no digest yet. */
  static Stat stat(Path file) throws IOException {
    try {
      Map<String, Object> attributes = Files.readAttributes(file, "unix:dev,ino,size,lastModifiedTime,ctime");
      return new Stat(true, (Long) attributes.get("size"), (Long) attributes.get("dev"), (Long) attributes.get("ino"),
          nanos((FileTime) attributes.get("lastModifiedTime")), nanos((FileTime) attributes.get("ctime")));
    } catch (NoSuchFileException e) {
      return Stat.ABSENT;
    }
  }

  /** A stamp of a file whose times were {@code stat} before {@code content} was read from it. */
  static SourceStamp of(String suffix, Stat stat, byte[] content, long nowNanos) {
    if (!stat.present() || content == null) {
      return new SourceStamp(suffix, false, 0, 0, 0, 0, 0, false, new byte[0]);
    }
    boolean racy = nowNanos - Math.max(stat.modifiedNanos(), stat.changedNanos()) < RACY_NANOS;
    return new SourceStamp(suffix, true, content.length, stat.device(), stat.inode(), stat.modifiedNanos(),
        stat.changedNanos(), racy, sha256(content));
  }

  /**
   * Why the file {@code file} no longer holds what this stamp was taken of; null when it does.
   */
  String staleReason(Path file) throws IOException {
    Stat now = stat(file);
    if (now.present() != present) {
      return present ? PathBytes.text(file) + " was removed" : PathBytes.text(file) + " was created";
    }
    if (!present) {
      return null;
    }
    if (now.size() != size) {
      return PathBytes.text(file) + " changed";
    }
    if (!racy && now.device() == device && now.inode() == inode && now.modifiedNanos() == modifiedNanos
        && now.changedNanos() == changedNanos) {
      return null;
    }
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return file + " was removed";
    }
    return MessageDigest.isEqual(sha256(content), sha256) ? null : file + " changed";
  }

  static byte[] sha256(byte[] content) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java runtime has SHA-256", e);
    }
  }

  private static long nanos(FileTime time) {
    return time.to(TimeUnit.NANOSECONDS);
  }

  @Override
  public byte[] sha256() {
    return sha256.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SourceStamp that && suffix.equals(that.suffix) && present == that.present
        && size == that.size && device == that.device && inode == that.inode && modifiedNanos == that.modifiedNanos
        && changedNanos == that.changedNanos && racy == that.racy && Arrays.equals(sha256, that.sha256);
  }

  @Override
  public int hashCode() {
    return suffix.hashCode() * 31 + Arrays.hashCode(sha256);
  }

  /** {@code stat}'s answer for a file, or {@link #ABSENT}. */
  record Stat(boolean present, long size, long device, long inode, long modifiedNanos, long changedNanos) {
    static final Stat ABSENT = new Stat(false, 0, 0, 0, 0, 0);
  }
}
