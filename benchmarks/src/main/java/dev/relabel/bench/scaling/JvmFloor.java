package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor of a one-file run on the JVM: {@code benchmarks/floor/ShortFloor.java} (what it does is
 * said at its top), compiled with the running JDK's javac into the run's scratch directory, as
 * {@link FloorProgram} builds the check's floor; run on relabel's own runtime, found from the
 * launcher as the launcher finds it (a checkout's {@code relabel-cli/target}, or an installed
 * {@code PREFIX/share/relabel} and {@code PREFIX/lib/relabel/jna}), with a class data sharing
 * archive made for it the way relabel's is (the classes one run of it loads, then
 * {@code -Xshare:dump}): relabel's own archive would leave the floor's lambdas and JNA's to be
 * spun at run time, and the floor would stand higher than it is.
 */
final class JvmFloor {
  /** The source, relative to the checkout's top. */
  static final String SOURCE = "benchmarks/floor/ShortFloor.java";

  private final List<String> java;

  private JvmFloor(List<String> java) {
    this.java = java;
  }

  /**
   * Compiles the floor against the relabel.jar the launcher {@code launcher} runs, with the JDK
   * this harness runs on; {@code javaCommand} then runs it with the launcher's JIT and collector
   * flags, relabel's archive and JNA's native library.
   */
  static JvmFloor build(Path top, Path launcher, String javaCommand, Path scratch) throws IOException, InterruptedException {
    Path source = top.resolve(SOURCE);
    if (!Files.isRegularFile(source)) {
      throw new IOException(source + " is missing (run relabel-bench from a checkout)");
    }
    Path home = launcher.toAbsolutePath().getParent().getParent();
    boolean installed = Files.isRegularFile(home.resolve("share/relabel/relabel.jar"));
    Path jar = installed ? home.resolve("share/relabel/relabel.jar") : home.resolve("relabel-cli/target/relabel.jar");
    Path jna = (installed ? home.resolve("lib/relabel/jna") : home.resolve("relabel-cli/target/jna"))
        .resolve(System.getProperty("os.arch").equals("aarch64") ? "linux-aarch64" : "linux-x86-64");
    Path classes = Files.createDirectories(scratch.resolve("short-floor"));
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    Path log = scratch.resolve("javac-short-floor.log");
    Process compile = new ProcessBuilder(List.of(javac.toString(), "--release", "17", "-XDstringConcat=inline",
        "-cp", jar.toString(), "-d", classes.toString(), source.toString()))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (compile.waitFor() != 0) {
      throw new IOException(javac + " could not compile " + source + ": "
          + Files.readString(log, StandardCharsets.ISO_8859_1));
    }
    List<String> jnaFlags = new ArrayList<>(List.of("-Djna.platform.library.path="));
    if (Files.isRegularFile(jna.resolve("libjnidispatch.so"))) {
      jnaFlags.addAll(List.of("-Djna.boot.library.path=" + jna, "-Djna.nosys=true", "-Djna.nounpack=true"));
    }
    // In a jar: the archive's class path may hold no directory.
    Path floorJar = scratch.resolve("short-floor.jar");
    try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(floorJar))) {
      out.putNextEntry(new java.util.jar.JarEntry("ShortFloor.class"));
      out.write(Files.readAllBytes(classes.resolve("ShortFloor.class")));
      out.closeEntry();
    }
    String classPath = jar + ":" + floorJar;
    Path classList = scratch.resolve("short-floor.classlist");
    Path archive = scratch.resolve("short-floor.jsa");
    List<String> train = new ArrayList<>(List.of(javaCommand, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-XX:DumpLoadedClassList=" + classList));
    train.addAll(jnaFlags);
    train.addAll(List.of("-cp", classPath, "ShortFloor", "jna", "/"));
    run(train, scratch.resolve("short-floor-train.log"));
    run(List.of(javaCommand, "-XX:+UseSerialGC", "-Xshare:dump", "-XX:SharedClassListFile=" + classList,
        "-XX:SharedArchiveFile=" + archive, "-cp", classPath), scratch.resolve("short-floor-dump.log"));
    List<String> command = new ArrayList<>(List.of(javaCommand, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-XX:-UsePerfData", "-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
    command.addAll(jnaFlags);
    command.addAll(List.of("-cp", classPath, "ShortFloor"));
    return new JvmFloor(command);
  }

  private static void run(List<String> command, Path log) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (process.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + Files.readString(log, StandardCharsets.ISO_8859_1));
    }
  }

  /** The JVM's start with relabel.jar and its archive, printing {@code file}. */
  List<String> withJar(Path file) {
    return with("jar", file);
  }

  /** As {@link #withJar}, and one lgetxattr of {@code file} through JNA. */
  List<String> withJna(Path file) {
    return with("jna", file);
  }

  private List<String> with(String mode, Path file) {
    List<String> command = new ArrayList<>(java);
    command.add(mode);
    command.add(file.toString());
    return command;
  }
}
