package dev.relabel.policy;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * One line of a {@code file_contexts} file: a regular expression over whole paths, an optional
 * file type restriction, and the context to give (or {@code <<none>>}: leave the file alone).
 *
 * @param regex the expression exactly as written (ASCII, PCRE2 syntax, unanchored)
 * @param fileType the type restriction, {@link FileType#ANY} when the line has none
 * @param context the context as written, or {@value #NONE}
 * @param file the file the line came from
 * @param line its 1-based line number
 * @param origin which of the policy's files that is
 */
public record Spec(String regex, FileType fileType, String context, Path file, int line, Origin origin) {
  /** The context that tells libselinux to leave matching files alone. */
  public static final String NONE = "<<none>>";

  public Spec {
    requireNonNull(regex, "regex");
    requireNonNull(fileType, "fileType");
    requireNonNull(context, "context");
    requireNonNull(file, "file");
    requireNonNull(origin, "origin");
  }

  /** Whether this spec says to leave matching files alone. */
  public boolean isNone() {
    return NONE.equals(context);
  }

  /** {@code FILE:LINE}, for messages. */
  public String location() {
    return PathBytes.text(file) + ":" + line;
  }

  @Override
  public String toString() {
    return location() + ": " + regex + fileType.flag().map(f -> " " + f).orElse("") + " " + context;
  }
}
