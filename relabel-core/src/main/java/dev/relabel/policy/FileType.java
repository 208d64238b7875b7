package dev.relabel.policy;

import java.util.Optional;

/**
 * The file types a {@code file_contexts} line can be restricted to, with the {@code S_IFMT} bits
 * libselinux compares, the type flag that names them in a policy, and the SELinux class name used
 * by {@code matchpathcon}-style requests.
 */
public enum FileType {
  /** No restriction: a request of this type is matched by every spec, whatever its type flag. */
  ANY(0, null, "any"),
  REGULAR_FILE(0100000, "--", "file"),
  DIRECTORY(0040000, "-d", "dir"),
  SYMLINK(0120000, "-l", "lnk_file"),
  CHAR_DEVICE(0020000, "-c", "chr_file"),
  BLOCK_DEVICE(0060000, "-b", "blk_file"),
  SOCKET(0140000, "-s", "sock_file"),
  FIFO(0010000, "-p", "fifo_file");

  /** The {@code S_IFMT} mask of {@code st_mode}. */
  public static final int S_IFMT = 0170000;

  private final int modeBits;
  private final String flag;
  private final String className;

  FileType(int modeBits, String flag, String className) {
    this.modeBits = modeBits;
    this.flag = flag;
    this.className = className;
  }

  /** The {@code S_IFMT} bits of this type; 0 for {@link #ANY}. */
  public int modeBits() {
    return modeBits;
  }

  /** The type flag as written in {@code file_contexts} ({@code --}, {@code -d}, ...); absent for ANY. */
  public Optional<String> flag() {
    return Optional.ofNullable(flag);
  }

  /** The SELinux object class name ({@code file}, {@code dir}, ...; {@code any} for ANY). */
  public String className() {
    return className;
  }

  /**
   * Whether a spec restricted to this type applies to a request for {@code requested}: as in
   * libselinux, an unrestricted spec or an unrestricted request always applies.
   */
  public boolean admits(FileType requested) {
    return this == ANY || requested == ANY || this == requested;
  }

  /** The type whose flag is {@code flag}, as libselinux's {@code string_to_mode} reads it. */
  public static Optional<FileType> fromFlag(String flag) {
    for (FileType type : values()) {
      if (type.flag != null && type.flag.equals(flag)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /** The type named by an object class name ({@code file}, {@code dir}, ... or {@code any}). */
  public static Optional<FileType> fromClassName(String name) {
    for (FileType type : values()) {
      if (type.className.equals(name)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /** values() copies the array at every call; fromMode is asked once per entry of a walk. */
  private static final FileType[] ALL = values();

  /** The type of an {@code st_mode} value (only its {@code S_IFMT} bits are read). */
  public static FileType fromMode(int mode) {
    int format = mode & S_IFMT;
    for (FileType type : ALL) {
      if (type.modeBits == format) {
        return type;
      }
    }
    return ANY;
  }
}
