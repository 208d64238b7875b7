package dev.relabel.nativeio;

/**
 * One directory entry as {@code getdents64} gives it: its name (without NUL), its {@code d_type}
 * (one of {@link Kernel}'s {@code DT_} values) and inode; read ahead
 * ({@link Kernel#readDirectoryAhead}), also what its own calls would have answered.
 *
 * @param stat its status, as {@link Kernel#stat} gives it; null when not read ahead or its statx failed
 * @param labelRead whether {@code label} is its raw {@code security.selinux} value as
 *     {@link Kernel#getLabel} gives it (null: it has none); false when not read ahead or the read failed
 */
public record DirEntry(byte[] name, int type, long inode, FileStat stat, boolean labelRead, byte[] label) {
  /** An entry as the listing alone gives it. */
  public DirEntry(byte[] name, int type, long inode) {
    this(name, type, inode, null, false, null);
  }
}
