package dev.relabel.cli;

import dev.relabel.cli.common.Io;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Runs {@code relabel} in-process on memory streams, as {@code main} runs it on the process's. */
public final class Cli {
  private Cli() {}

  /** What a run left: its exit status, standard output (bytes), standard error (text, and its bytes). */
  public record Result(int status, byte[] out, String err, byte[] errBytes) {
    /** Standard output one char per byte, so that any byte can be compared. */
    public String outLatin1() {
      return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** Standard output's lines (one char per byte), split at '\n' only. */
    public List<String> lines() {
      String text = outLatin1();
      if (text.isEmpty()) {
        return List.of();
      }
      if (!text.endsWith("\n")) {
        throw new AssertionError("output does not end with a newline: " + text);
      }
      return Arrays.asList(text.substring(0, text.length() - 1).split("\n", -1));
    }

    /** Standard error's lines. */
    public List<String> errLines() {
      return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
    }

    @Override
    public String toString() {
      return "status " + status + "\n--- out\n" + outLatin1() + "--- err\n" + err;
    }
  }

  public static Result run(String... args) {
    return run(new byte[0], StandardCharsets.UTF_8, args);
  }

  public static Result runWithStdin(byte[] stdin, String... args) {
    return run(stdin, StandardCharsets.UTF_8, args);
  }

  public static Result run(byte[] stdin, Charset charset, String... args) {
    return run(new ByteArrayInputStream(stdin), charset, args);
  }

  public static Result run(InputStream stdin, Charset charset, String... args) {
    return run(stdin, charset, Map.of(), args);
  }

  /** As {@link #run(String...)}, with these environment variables (the process's are never seen). */
  public static Result run(Map<String, String> environment, String... args) {
    return run(new ByteArrayInputStream(new byte[0]), StandardCharsets.UTF_8, environment, args);
  }

  private static Result run(InputStream stdin, Charset charset, Map<String, String> environment, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    // As main runs it on picocli's path: with only the verb the arguments name, long options' prefixes spelled out.
    int status = RelabelCommand.execute(new Io(stdin, out, err, charset, environment), args);
    return new Result(status, out.toByteArray(), err.toString(charset), err.toByteArray());
  }

  /**
   * As {@link #run(String...)}, with standard output and standard error going to one stream (as
   * {@code 2>&1} sends them): the run's status and that stream's text, one char per byte.
   */
  public static Result runMerged(String... args) {
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    int status = RelabelCommand.execute(new Io(new ByteArrayInputStream(new byte[0]), both, both,
        StandardCharsets.UTF_8, Map.of()), args);
    return new Result(status, both.toByteArray(), "", new byte[0]);
  }

  /** A string's bytes, one per char (chars must be below 256). */
  public static byte[] latin1(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
