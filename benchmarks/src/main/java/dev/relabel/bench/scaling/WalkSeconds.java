package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The walk's own duration from relabel's {@code --json} report: its top-level {@code walkSeconds}
 * (relabel-cli's report.schema.json), the walks without the JVM's start, the policy's load and the
 * report. Read with a pattern rather than a JSON library: the harness does not otherwise depend on
 * one, the field is a plain number written by relabel's own generator, and no other field of the
 * report has that name.
 */
public final class WalkSeconds {
  private static final Pattern FIELD = Pattern.compile("\"walkSeconds\"\\s*:\\s*([0-9.eE+-]+)");

  private WalkSeconds() {}

  /** {@code walkSeconds} of the report in {@code text}; NaN when it has none (no walk ran). */
  public static double of(String text) {
    Matcher m = FIELD.matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  /** As {@link #of(String)}, for a report written to {@code file}. */
  public static double ofFile(Path file) throws IOException {
    return of(Files.readString(file, StandardCharsets.ISO_8859_1));
  }
}
