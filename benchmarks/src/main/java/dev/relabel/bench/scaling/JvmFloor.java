package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A floor on the JVM, one of two programs in {@code benchmarks/floor} (what each does is said at
 * its top): {@link Program#SHORT}, a one-file run's, and {@link Program#WALK}, check-floor.c's walk
 * in Java. Compiled with the running JDK's javac into the run's scratch directory, as
 * {@link FloorProgram} builds the check's floor; run on relabel's own runtime, found from the
 * launcher as the launcher finds it (a checkout's {@code relabel-cli/target}, or an installed
 * {@code PREFIX/share/relabel} and {@code PREFIX/lib/relabel/jna}), with a class data sharing
 * archive made for it the way relabel's is (the classes one run of it loads, then
 * {@code -Xshare:dump}): relabel's own archive would leave the floor's lambdas and JNA's to be
 * spun at run time, and the floor would stand higher than it is. Its {@code jni} mode loads its
 * JNI library, built here with {@code cc}.
 */
final class JvmFloor {
  /** A floor program: its class (its source is {@code benchmarks/floor/CLASS.java}) and JNI library. */
  enum Program {
    /** The floor of a one-file run: the JVM's start, then one label read through JNA or JNI. */
    SHORT("ShortFloor", "benchmarks/floor/short-floor-jni.c", "libshortfloor.so"),
    /**
     * check-floor.c's walk, through JNA as relabel calls the kernel or through JNI, on the JVM with
     * the launcher's heap flags; its library's path goes in the system property
     * {@code walk.floor.library}, since the harness appends check-floor's own arguments.
     */
    WALK("WalkFloor", "benchmarks/floor/walk-floor-jni.c", "libwalkfloor.so");

    final String className;
    final String jniSource;
    final String library;

    Program(String className, String jniSource, String library) {
      this.className = className;
      this.jniSource = jniSource;
      this.library = library;
    }

    /** The source, relative to the checkout's top. */
    String source() {
      return "benchmarks/floor/" + className + ".java";
    }

    /** What the run that lists the classes for the archive does. */
    List<String> training(Path top) {
      return this == SHORT ? List.of("jna", "/") : List.of("jna", top.resolve("benchmarks/floor").toString());
    }
  }

  private final Program program;
  private final List<String> java;
  private final Path jniLibrary;

  private JvmFloor(Program program, List<String> java, Path jniLibrary) {
    this.program = program;
    this.java = java;
    this.jniLibrary = jniLibrary;
  }

  /**
   * Compiles {@code program} against the relabel.jar the launcher {@code launcher} runs, with the
   * JDK this harness runs on; {@code javaCommand} then runs it with the launcher's JIT and collector
   * flags, its own archive and JNA's native library.
   */
  static JvmFloor build(Program program, Path top, Path launcher, String javaCommand, Path scratch)
      throws IOException, InterruptedException {
    Path source = top.resolve(program.source());
    if (!Files.isRegularFile(source)) {
      throw new IOException(source + " is missing (run relabel-bench from a checkout)");
    }
    Path home = launcher.toAbsolutePath().getParent().getParent();
    boolean installed = Files.isRegularFile(home.resolve("share/relabel/relabel.jar"));
    Path jar = installed ? home.resolve("share/relabel/relabel.jar") : home.resolve("relabel-cli/target/relabel.jar");
    Path jna = (installed ? home.resolve("lib/relabel/jna") : home.resolve("relabel-cli/target/jna"))
        .resolve(System.getProperty("os.arch").equals("aarch64") ? "linux-aarch64" : "linux-x86-64");
    String name = program.className;
    Path classes = Files.createDirectories(scratch.resolve(name + "-classes"));
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    Path log = scratch.resolve("javac-" + name + ".log");
    Process compile = new ProcessBuilder(List.of(javac.toString(), "--release", "17", "-XDstringConcat=inline",
        "-cp", jar.toString(), "-d", classes.toString(), source.toString()))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (compile.waitFor() != 0) {
      throw new IOException(javac + " could not compile " + source + ": "
          + Files.readString(log, StandardCharsets.ISO_8859_1));
    }
    Path jniLibrary = buildJniLibrary(program, top, scratch);
    List<String> flags = new ArrayList<>(List.of("-Djna.platform.library.path="));
    if (Files.isRegularFile(jna.resolve("libjnidispatch.so"))) {
      flags.addAll(List.of("-Djna.boot.library.path=" + jna, "-Djna.nosys=true", "-Djna.nounpack=true"));
    }
    if (program == Program.WALK) {
      // The launcher's heap and compiler flags, which a walk meets (a one-file run's heap hardly does).
      flags.addAll(List.of("-Xss4m", "-Xmn16m", "-Dwalk.floor.library=" + jniLibrary));
      if (hugePagesOnRequest()) {
        flags.add("-XX:+UseTransparentHugePages");
      }
      if (oneOrTwoCpus()) {
        flags.add("-XX:CICompilerCount=1");
      }
    }
    // In a jar: the archive's class path may hold no directory.
    Path floorJar = scratch.resolve(name + ".jar");
    try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(floorJar));
        java.util.stream.Stream<Path> compiled = Files.list(classes)) {
      for (Path file : compiled.sorted().toList()) {
        out.putNextEntry(new java.util.jar.JarEntry(file.getFileName().toString()));
        out.write(Files.readAllBytes(file));
        out.closeEntry();
      }
    }
    String classPath = jar + ":" + floorJar;
    Path classList = scratch.resolve(name + ".classlist");
    Path archive = scratch.resolve(name + ".jsa");
    List<String> train = new ArrayList<>(List.of(javaCommand, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-XX:DumpLoadedClassList=" + classList));
    train.addAll(flags);
    train.addAll(List.of("-cp", classPath, name));
    train.addAll(program.training(top));
    run(train, scratch.resolve(name + "-train.log"));
    run(List.of(javaCommand, "-XX:+UseSerialGC", "-Xshare:dump", "-XX:SharedClassListFile=" + classList,
        "-XX:SharedArchiveFile=" + archive, "-cp", classPath), scratch.resolve(name + "-dump.log"));
    List<String> command = new ArrayList<>(List.of(javaCommand, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-XX:-UsePerfData", "-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
    command.addAll(flags);
    command.addAll(List.of("-cp", classPath, name));
    return new JvmFloor(program, command, jniLibrary);
  }

  /** Whether the kernel gives transparent huge pages on request, where the launcher asks for them. */
  private static boolean hugePagesOnRequest() {
    try {
      String setting = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
      return setting.contains("[always]") || setting.contains("[madvise]");
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether the launcher asks for one JIT compiler thread: the kernel has one or two CPUs online. */
  private static boolean oneOrTwoCpus() {
    try {
      String online = Files.readString(Path.of("/sys/devices/system/cpu/online")).strip();
      return online.equals("0") || online.equals("0-1");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Builds {@code program}'s JNI library with {@code cc -O2 -shared} against the JNI headers of the
   * JDK this harness runs on (the JNI interface is the same in every JDK); its path.
   */
  private static Path buildJniLibrary(Program program, Path top, Path scratch) throws IOException, InterruptedException {
    Path source = top.resolve(program.jniSource);
    Path include = Path.of(System.getProperty("java.home"), "include");
    if (!Files.isRegularFile(include.resolve("jni.h"))) {
      throw new IOException(include + "/jni.h is missing: run relabel-bench on a JDK, not a JRE");
    }
    Path library = scratch.resolve(program.library);
    FloorProgram.cc(List.of("-O2", "-shared", "-fPIC", "-I" + include, "-I" + include.resolve("linux"),
        "-o", library.toString()), source, scratch.resolve("cc-" + program.className + ".log"),
        "the JNI floor builds " + program.jniSource + " with cc, which is not installed: apt-get install gcc");
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

  /**
   * {@link Program#WALK} in {@code mode} ("jna" or "jni"), the command check-floor's arguments
   * ({@code [-T N] [-w LABEL] TREE}) are appended to.
   */
  List<String> walk(String mode) {
    if (program != Program.WALK) {
      throw new IllegalStateException(program + " does not walk");
    }
    List<String> command = new ArrayList<>(java);
    command.add(mode);
    return command;
  }

  private List<String> with(String mode, Path file) {
    List<String> command = new ArrayList<>(java);
    command.add(mode);
    command.add(file.toString());
    return command;
  }
}
