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

  /** Whether it is a directory ({@code S_ISDIR}). */
  public boolean isDirectory() {
    return fileFormat() == 0040000;
  }

  /**
   * The modification time in nanoseconds since the epoch (as {@code find -newermt} compares it),
   * saturated as {@code FileTime.to(NANOSECONDS)} saturates: a time before 1677 or after 2262 (a
   * bad clock, an archive's) is {@code Long.MIN_VALUE} or {@code MAX_VALUE}, never an error.
   */
  public long modifiedNanos() {
    return nanos(mtimeSeconds, mtimeNanos);
  }

  /** {@code seconds} and {@code nanos} since the epoch in nanoseconds, saturated. */
  public static long nanos(long seconds, int nanos) {
    try {
      return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos);
    } catch (ArithmeticException e) {
      return seconds < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
