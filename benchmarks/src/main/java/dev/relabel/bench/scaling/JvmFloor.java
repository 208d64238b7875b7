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
 * spun at run time, and the floor would stand higher than it is. Its {@code jni} mode loads
 * {@code benchmarks/floor/short-floor-jni.c}, built here with {@code cc}.
 */
final class JvmFloor {
  /** The source, relative to the checkout's top. */
  static final String SOURCE = "benchmarks/floor/ShortFloor.java";
  /** The JNI library of its {@code jni} mode, relative to the checkout's top. */
  static final String JNI_SOURCE = "benchmarks/floor/short-floor-jni.c";

  private final List<String> java;
  private final Path jniLibrary;

  private JvmFloor(List<String> java, Path jniLibrary) {
    this.java = java;
    this.jniLibrary = jniLibrary;
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
    Path jniLibrary = buildJniLibrary(top, scratch);
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
    return new JvmFloor(command, jniLibrary);
  }

  /**
   * Builds {@value #JNI_SOURCE} with {@code cc -O2 -shared} against the JNI headers of the JDK this
   * harness runs on (the JNI interface is the same in every JDK); its path.
   */
  private static Path buildJniLibrary(Path top, Path scratch) throws IOException, InterruptedException {
    Path source = top.resolve(JNI_SOURCE);
    Path include = Path.of(System.getProperty("java.home"), "include");
    if (!Files.isRegularFile(include.resolve("jni.h"))) {
      throw new IOException(include + "/jni.h is missing: run relabel-bench on a JDK, not a JRE");
    }
    Path library = scratch.resolve("libshortfloor.so");
    FloorProgram.cc(List.of("-O2", "-shared", "-fPIC", "-I" + include, "-I" + include.resolve("linux"),
        "-o", library.toString()), source, scratch.resolve("cc-short-floor.log"),
        "the JNI floor builds " + JNI_SOURCE + " with cc, which is not installed: apt-get install gcc");
    return library;
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

  /** As {@link #withJar}, and one lgetxattr of {@code file} through a JNI library of one function. */
  List<String> withJni(Path file) {
    List<String> command = with("jni", file);
    command.add(jniLibrary.toString());
    return command;
  }

  private List<String> with(String mode, Path file) {
    List<String> command = new ArrayList<>(java);
    command.add(mode);
    command.add(file.toString());
    return command;
  }
}
