package dev.relabel.nativeio;

/**
 * One directory entry as {@code getdents64} gives it: its name (without NUL), its {@code d_type}
 * (one of {@link Kernel}'s {@code DT_} values) and inode.
 */
public record DirEntry(byte[] name, int type, long inode) {}
