package dev.relabel.cli.lookup;

import dev.relabel.policy.FileType;
import java.util.Arrays;
import java.util.Iterator;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a file type as {@code matchpathcon -m} does: by its SELinux class name ({@code file},
 * {@code dir}, {@code lnk_file}, {@code chr_file}, {@code blk_file}, {@code sock_file},
 * {@code fifo_file}), or {@code any} for no type.
 */
public final class FileTypeConverter implements ITypeConverter<FileType>, Iterable<String> {
  /** The accepted names, for messages: {@code file, dir, ..., any}. */
  static final String NAMES = Arrays.stream(FileType.values())
      .filter(t -> t != FileType.ANY)
      .map(FileType::className)
      .collect(Collectors.joining(", ")) + " or any";

  @Override
  public FileType convert(String value) {
    return FileType.fromClassName(value).orElseThrow(() -> new TypeConversionException(
        "unknown file type '" + value + "' (expected " + NAMES + ")"));
  }

  /** The names, for picocli's completion candidates and ${COMPLETION-CANDIDATES}. */
  @Override
  public Iterator<String> iterator() {
    return Arrays.stream(FileType.values()).map(FileType::className).iterator();
  }
}
