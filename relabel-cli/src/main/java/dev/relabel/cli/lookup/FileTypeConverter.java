package dev.relabel.cli.lookup;

import dev.relabel.policy.FileType;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a file type for {@code -m}: its SELinux class name ({@code file}, {@code dir},
 * {@code lnk_file}, {@code chr_file}, {@code blk_file}, {@code sock_file}, {@code fifo_file}),
 * {@code pipe} for a FIFO as matchpathcon's manual spells it, or {@code any} for no type.
 * (matchpathcon 3.4 reads only the first letter, so to it {@code fifo_file} is a regular file.)
 */
public final class FileTypeConverter implements ITypeConverter<FileType>, Iterable<String> {
  /** matchpathcon's name for a FIFO. */
  static final String PIPE = "pipe";

  /** The accepted names, for messages: {@code file, dir, ..., pipe or any}. */
  static final String NAMES = Arrays.stream(FileType.values())
      .filter(t -> t != FileType.ANY)
      .map(FileType::className)
      .collect(Collectors.joining(", ")) + ", " + PIPE + " or any";

  /** The type {@code name} names, if any. */
  static Optional<FileType> named(String name) {
    return name.equals(PIPE) ? Optional.of(FileType.FIFO) : FileType.fromClassName(name);
  }

  @Override
  public FileType convert(String value) {
    return named(value).orElseThrow(() -> new TypeConversionException(
        "unknown file type '" + value + "' (expected " + NAMES + ")"));
  }

  /** The names, for picocli's completion candidates and ${COMPLETION-CANDIDATES}. */
  @Override
  public Iterator<String> iterator() {
    return Arrays.stream(FileType.values()).map(FileType::className).iterator();
  }
}
