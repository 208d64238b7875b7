package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The syscall floor of a check: {@code benchmarks/floor/check-floor.c} (what it does is said at
 * its top), built with {@code cc -O2 -pthread} into the run's scratch directory at the start of a run, as
 * restorecon's shim is ({@link PreloadShim}); no binary is kept in the repository.
 */
public final class FloorProgram {
  /** The source, relative to the checkout's top. */
  public static final String SOURCE = "benchmarks/floor/check-floor.c";

  /**
   * What one run of it said.
   *
   * @param entries the entries it counted, the root included
   * @param method its stderr line saying how it read labels (getxattrat, or the lgetxattr fallback)
   */
  public record Probe(long entries, String method) {}

  private FloorProgram() {}

  /** Builds {@code top}/{@value #SOURCE} into {@code scratch}; its path. Fails with cc's words when cc is missing or fails. */
  public static Path build(Path top, Path scratch) throws IOException, InterruptedException {
    Path source = top.resolve(SOURCE);
    if (!Files.isRegularFile(source)) {
      throw new IOException("--floor: " + source + " is missing (run relabel-bench from a checkout)");
    }
    Path binary = scratch.resolve("check-floor");
    cc(List.of("-O2", "-pthread", "-o", binary.toString()), source, scratch.resolve("cc-floor.log"),
        "--floor builds " + SOURCE + " with cc, which is not installed: apt-get install gcc, or leave out --floor");
    return binary;
  }

  /**
   * Runs {@code cc OPTIONS SOURCE}, its output to {@code log}: fails with {@code notInstalled} when
   * cc cannot start, and with cc's words when it fails. Every C build of the harness (the floors',
   * {@link JvmFloor}'s, restorecon's {@link PreloadShim}) goes through here.
   */
  static void cc(List<String> options, Path source, Path log, String notInstalled)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("cc");
    command.addAll(options);
    command.add(source.toString());
    Process cc;
    try {
      cc = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      throw new IOException(notInstalled, e);
    }
    if (cc.waitFor() != 0) {
      throw new IOException("cc could not build " + source + ": " + Files.readString(log, StandardCharsets.ISO_8859_1));
    }
  }

  /**
   * Runs it once on {@code tree} with {@code threads} threads: what it counted and how it read
   * labels. Fails unless it exits 0.
   */
  public static Probe probe(Path binary, int threads, Path tree, Path scratch) throws IOException, InterruptedException {
    return probe(List.of(binary.toString()), threads, tree, scratch);
  }

  /**
   * As {@link #probe(Path, int, Path, Path)}, for any floor that takes check-floor's arguments and
   * answers as it does ({@code command}: check-floor, or {@link JvmFloor#walk}).
   */
  static Probe probe(List<String> command, int threads, Path tree, Path scratch) throws IOException, InterruptedException {
    Path out = Files.createTempFile(scratch, "floor-out", ".txt");
    Path err = Files.createTempFile(scratch, "floor-err", ".txt");
    try {
      List<String> run = new ArrayList<>(command);
      run.addAll(List.of("-T", Integer.toString(threads), tree.toString()));
      Process p = new ProcessBuilder(run).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      int status = p.waitFor();
      List<String> errors = Files.readAllLines(err, StandardCharsets.ISO_8859_1);
      if (status != 0) {
        throw new IOException(String.join(" ", run) + " exited " + status + ": " + String.join("\n", errors));
      }
      String method = errors.isEmpty() ? "?" : errors.get(errors.size() - 1).replaceFirst("^[a-z-]+: ", "");
      return new Probe(Long.parseLong(Files.readString(out).trim()), method);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
