package dev.relabel.nativeio;

/**
 * What {@code statx} says of an entry, not following a symlink.
 *
 * @param mtimeNanos the nanoseconds part of the modification time ({@code stx_mtime.tv_nsec})
 */
public record FileStat(int mode, long nlink, long inode, long device, long mtimeSeconds, long ctimeSeconds,
    int mtimeNanos) {
  public int fileFormat() {
    return mode & 0170000;
  }

  /** The modification time in nanoseconds since the epoch (as {@code find -newermt} compares it). */
  public long modifiedNanos() {
    return Math.addExact(Math.multiplyExact(mtimeSeconds, 1_000_000_000L), mtimeNanos);
  }
}
