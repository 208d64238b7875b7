package dev.relabel.nativeio;

/**
 * What {@code statx} says of an entry, not following a symlink.
 *
 * @param mtimeNanos the nanoseconds part of the modification time ({@code stx_mtime.tv_nsec})
 * @param attributes {@code stx_attributes}: flags such as {@link #ATTR_MOUNT_ROOT}
 * @param attributesMask {@code stx_attributes_mask}: which of those flags the kernel and the
 *     filesystem can tell; 0 for a status read with a directory's listing, which keeps no flags
 */
public record FileStat(int mode, long nlink, long inode, long device, long mtimeSeconds, long ctimeSeconds,
    int mtimeNanos, long attributes, long attributesMask) {
  /** {@code STATX_ATTR_MOUNT_ROOT} (Linux 5.8): the entry is the root of a mount. */
  public static final long ATTR_MOUNT_ROOT = 0x2000;

  /** Whether this status tells whether the entry is the root of a mount (Linux 5.8 and later). */
  public boolean tellsMountRoot() {
    return (attributesMask & ATTR_MOUNT_ROOT) != 0;
  }

  /**
   * Whether the entry is the root of a mount: of another filesystem, or a bind mount, which may
   * show a part of the very filesystem it is mounted on (the device then the same). False where
   * the status does not tell ({@link #tellsMountRoot}).
   */
  public boolean isMountRoot() {
    return (attributes & attributesMask & ATTR_MOUNT_ROOT) != 0;
  }

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
