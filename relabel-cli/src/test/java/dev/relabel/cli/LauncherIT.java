package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/relabel} run as a process on the shaded {@code relabel.jar}, after {@code package}
 * (maven-failsafe-plugin passes the launcher's and the jar's paths and the project version).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LauncherIT {
  private static final String CONTEXT = "system_u:object_r:some_t:s0";

  private static Path launcher;
  private static String version;

  @TempDir
  Path dir;

  private Path policy;

  @BeforeAll
  static void locate() {
    launcher = LauncherScript.launcher("LauncherIT");
    version = required("relabel.version");
    assertTrue(Files.isRegularFile(Path.of(required("relabel.jar"))), "relabel.jar is not built");
    assertTrue(Files.isExecutable(launcher), launcher + " is not executable");
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    assertTrue(value != null && !value.isEmpty(), "system property " + property + " is not set (run by failsafe)");
    return value;
  }

  @BeforeEach
  void writePolicy() throws IOException {
    policy = dir.resolve("file_contexts");
    Files.writeString(policy, "/some(/.*)?\t" + CONTEXT + "\n/some/none\t<<none>>\n");
  }

  record Run(int status, byte[] out, String err) {
    String outText() {
      return new String(out, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
      return "status " + status + "\n--- out\n" + outText() + "--- err\n" + err;
    }
  }

  private Run run(Path command, Map<String, String> env, byte[] stdin, String... args)
      throws IOException, InterruptedException {
    List<String> commandLine = new ArrayList<>();
    commandLine.add(command.toString());
    commandLine.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(commandLine).directory(dir.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("RELABEL_JAVA_OPTS");
    for (Map.Entry<String, String> entry : env.entrySet()) {
      if (entry.getValue() == null) {
        builder.environment().remove(entry.getKey());
      } else {
        builder.environment().put(entry.getKey(), entry.getValue());
      }
    }
    Path out = Files.createTempFile(dir, "out", "");
    Path err = Files.createTempFile(dir, "err", "");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin);
    }
    assertTrue(process.waitFor(90, TimeUnit.SECONDS), "relabel did not finish");
    return new Run(process.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
  }

  private Run run(String... args) throws IOException, InterruptedException {
    return run(launcher, Map.of(), new byte[0], args);
  }

  /** bin/relabel ARGS started, its standard input and output pipes this test holds, its standard error dropped. */
  private static Process start(String... args) throws IOException {
    List<String> commandLine = new ArrayList<>(List.of(launcher.toString()));
    commandLine.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(commandLine).redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("RELABEL_JAVA_OPTS");
    return builder.start();
  }

  @Test
  void version() throws Exception {
    Run r = run("--version");
    String[] lines = r.outText().split("\n");
    assertEquals("relabel " + version, lines[0], r::toString);
    assertTrue(lines.length == 4 && lines[1].matches("built \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ with JDK \\d+")
        && lines[2].startsWith("running on Java "), r::toString);
    // The build's librelabel, which the launcher names beside JNA's library (relabel-cli/target/jna/ARCH).
    assertTrue(lines[3].matches("librelabel /.*/relabel-cli/target/jna/linux-(x86-64|aarch64)/librelabel\\.so"), r::toString);
    assertEquals("", r.err());
    assertEquals(0, r.status());
  }

  @Test
  void relabelJavaOptsMayPickAnotherCollector() throws Exception {
    // The launcher's serial collector would make the JVM refuse a second one.
    Run r = run(launcher, Map.of("RELABEL_JAVA_OPTS", "-XX:+UseParallelGC -XX:TieredStopAtLevel=4"), new byte[0],
        "--version");
    assertEquals(0, r.status(), r::toString);
    assertEquals("", r.err(), r::toString);
  }

  @Test
  void lookup() throws Exception {
    Run r = run("lookup", "-f", policy.toString(), "/some/path");
    assertEquals("/some/path\t" + CONTEXT + "\n", r.outText(), r::toString);
    assertEquals("", r.err());
    assertEquals(0, r.status());

    Run none = run("lookup", "-f", policy.toString(), "/some/none", "/other");
    assertEquals("/some/none\t<<none>>\n/other\t<<nomatch>>\n", none.outText(), none::toString);
    assertEquals(1, none.status());
  }

  /**
   * An Error the JVM throws (here: out of memory, a 200 MB policy file read whole into a 32 MB
   * heap) is one line and the verb's failure status, as any internal error: it was the JVM's
   * "Exception in thread main" trace and status 1 even for setfiles, whose failures exit 255. The
   * quick path runs the first (no picocli class loaded, as -Xlog:class+load shows), picocli's the
   * others (an option after an operand).
   */
  @Test
  void anErrorOfTheJvmIsOneLineAndTheVerbsFailureStatus() throws Exception {
    Path huge = dir.resolve("huge-file_contexts");
    try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
      file.setLength(200_000_000); // sparse: NULs and no newline
    }
    Map<String, String> smallHeap = Map.of("RELABEL_JAVA_OPTS", "-Xmx32m -Xmn8m");
    String said = "relabel: internal error: java.lang.OutOfMemoryError: Java heap space\n";
    Run quick = run(launcher, smallHeap, new byte[0], "setfiles", "-n", huge.toString(), dir.toString());
    assertEquals(said, quick.err(), quick::toString);
    assertEquals(255, quick.status(), quick::toString);
    Run picocli = run(launcher, smallHeap, new byte[0], "setfiles", "-n", huge.toString(), dir.toString(), "-v");
    assertEquals(said, picocli.err(), picocli::toString);
    assertEquals(255, picocli.status(), picocli::toString);
    Run lookup = run(launcher, smallHeap, new byte[0], "lookup", "--stdin", "-f", huge.toString());
    assertEquals(said, lookup.err(), lookup::toString);
    assertEquals(1, lookup.status(), lookup::toString);
  }

  @Test
  void errorsAreOneLineAndStatusOne() throws Exception {
    Run missing = run("lookup", "-f", dir.resolve("absent").toString(), "/some/path");
    assertEquals("relabel: " + dir.resolve("absent") + ": No such file or directory\n", missing.err(), missing::toString);
    assertEquals(0, missing.out().length);
    assertEquals(1, missing.status());

    Files.writeString(policy, "/some\tnot_a_context\n");
    Run bad = run("lookup", "-f", policy.toString(), "/some/path");
    assertTrue(bad.err().startsWith("relabel: " + policy + ":1: "), bad::toString);
    assertEquals(1, bad.err().lines().count(), bad::toString);
    assertEquals(1, bad.status());

    Run usage = run("lookup", "--no-such-option");
    assertTrue(usage.err().startsWith("relabel: Unknown option: '--no-such-option'"), usage::toString);
    assertEquals(1, usage.status());
  }

  @Test
  void stdinBytesPassThroughUnchanged() throws Exception {
    byte[] input = Cli.latin1("/some/\u00ff\u00c3(\r\ndir\t/some/a\tb\nbogus\t/some/c\n/nowhere");
    Run r = run(launcher, Map.of("LC_ALL", "C"), input, "lookup", "-f", policy.toString(), "--stdin");
    assertEquals("/some/\u00ff\u00c3(\r\t" + CONTEXT + "\n/some/a\tb\t" + CONTEXT + "\n/some/c\t<<error>>\n"
        + "/nowhere\t<<nomatch>>\n", r.outText(), r::toString);
    assertTrue(r.err().startsWith("relabel: stdin line 3: unknown file type 'bogus'"), r::toString);
    assertEquals(1, r.status());
  }

  @Test
  void stdinAnswersARequestWithoutWaitingForTheEndOfInput() throws Exception {
    Process process = start("lookup", "-f", policy.toString(), "--stdin");
    try {
      OutputStream requests = process.getOutputStream();
      BufferedReader answers = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.ISO_8859_1));
      requests.write(Cli.latin1("/some/first\n"));
      requests.flush();
      assertEquals("/some/first\t" + CONTEXT, answers.readLine());
      requests.write(Cli.latin1("/some/none\n"));
      requests.flush();
      assertEquals("/some/none\t<<none>>", answers.readLine());
      requests.close();
      assertEquals(null, answers.readLine());
      assertTrue(process.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, process.exitValue());
    } finally {
      process.destroyForcibly();
    }
  }

  /**
   * setfiles -s labels each path of its list as it reads it, as setfiles' getdelim loop does, so a
   * list from a program that never closes its end ({@code inotifywait -m ... | restorecon -f -})
   * is labelled as it comes; relabel used to read the whole list first and label nothing until
   * the pipe closed. Each -v line is out before the next read blocks.
   */
  @Test
  void setfilesLabelsEachListEntryAsItIsRead() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("streamed"));
    Path first = Files.writeString(tree.resolve("first"), "");
    Path second = Files.writeString(tree.resolve("second"), "");
    Path treePolicy = Files.writeString(dir.resolve("file_contexts-streamed"), tree + "(/.*)?\t" + CONTEXT + "\n");
    Process process = start("setfiles", "-v", "-F", "-s", treePolicy.toString());
    try {
      OutputStream list = process.getOutputStream();
      list.write(Cli.latin1(first + "\n"));
      list.flush();
      // Blocked reading the list again (a thread in pipe_read): the first path is done, and said.
      while (!LauncherScript.readingAPipe(process.pid())) {
        assertTrue(process.isAlive(), () -> "relabel ended with the list still open: status " + process.exitValue());
        Thread.sleep(20);
      }
      assertEquals(CONTEXT, AttrTrees.label(first, dir), "labelled with the list still open");
      assertEquals(null, AttrTrees.label(second, dir));
      String said = "Relabeled " + first + " from (null) to " + CONTEXT + "\n";
      InputStream verbose = process.getInputStream();
      assertTrue(verbose.available() >= said.length(), "the -v line is out before the read waits");
      assertEquals(said, new String(verbose.readNBytes(said.length()), StandardCharsets.ISO_8859_1));
      list.write(Cli.latin1(second + "\n"));
      list.close();
      assertEquals("Relabeled " + second + " from (null) to " + CONTEXT + "\n",
          new String(verbose.readAllBytes(), StandardCharsets.ISO_8859_1));
      assertTrue(process.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, process.exitValue());
      assertEquals(CONTEXT, AttrTrees.label(second, dir));
    } finally {
      process.destroyForcibly();
    }
  }

  /**
   * A list entry or lookup request longer than any path (1 MiB; here 40 MiB of one line, as a
   * binary file fed by mistake) is refused with its number and not held: the entries after it are
   * still done, in a heap (32 MiB) that could not have held it whole.
   */
  @Test
  void aLineLongerThanAnyPathIsRefusedAndTheRestDone() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("long"));
    Path after = Files.writeString(tree.resolve("after"), "");
    Path treePolicy = Files.writeString(dir.resolve("file_contexts-long"), tree + "(/.*)?\t" + CONTEXT + "\n");
    byte[] huge = new byte[40 << 20];
    java.util.Arrays.fill(huge, (byte) 'a');
    java.io.ByteArrayOutputStream input = new java.io.ByteArrayOutputStream();
    input.write(huge);
    input.write('\n');
    input.write(Cli.latin1(after + "\n"));
    Map<String, String> smallHeap = Map.of("RELABEL_JAVA_OPTS", "-Xmx32m -Xmn8m");

    Run setfiles = run(launcher, smallHeap, input.toByteArray(), "setfiles", "-F", "-s", treePolicy.toString());
    assertEquals("relabel: -: entry 1 of the list is longer than 1048576 bytes: not labelled\n", setfiles.err(),
        setfiles::toString);
    assertEquals(255, setfiles.status(), setfiles::toString);
    assertEquals(CONTEXT, AttrTrees.label(after, dir));

    Run lookup = run(launcher, smallHeap, input.toByteArray(), "lookup", "-f", treePolicy.toString(), "--stdin");
    assertEquals("\t<<error>>\n" + after + "\t" + CONTEXT + "\n", lookup.outText(), lookup::toString);
    assertEquals("relabel: stdin line 1: line longer than 1048576 bytes\n", lookup.err(), lookup::toString);
    assertEquals(1, lookup.status(), lookup::toString);
  }

  @Test
  void setfilesDryRun() throws Exception {
    // A tiny tree, as ROOT/some with -r ROOT: new files carry no label (SELinux is not enabled
    // here, or the labels differ from the policy's), so each is reported as would-be relabelled.
    Path root = Files.createDirectories(dir.resolve("tree"));
    Files.createDirectories(root.resolve("some/sub"));
    Files.writeString(root.resolve("some/file"), "");
    Files.writeString(root.resolve("some/none"), "");
    Run r = run("setfiles", "-n", "-v", "-r", root.toString(), policy.toString(), root.resolve("some").toString());
    assertEquals(0, r.status(), r::toString);
    List<String> lines = new ArrayList<>(r.outText().lines().toList());
    lines.sort(null);
    List<String> expected = new ArrayList<>();
    for (String path : List.of("some", "some/file", "some/sub")) {
      expected.add("Would relabel " + root.resolve(path) + " from (null) to " + CONTEXT);
    }
    expected.sort(null);
    if (!lines.equals(expected)) {
      // On an SELinux host the files may already carry a label: then only the form is checked.
      for (String line : lines) {
        assertTrue(line.matches("Would relabel " + java.util.regex.Pattern.quote(root.toString()) + "/some(/file|/sub)? from \\S+ to \\S+"), r::toString);
      }
    }
    assertEquals("", r.err());

    Run usage = run("setfiles", "-E", policy.toString(), root.toString());
    assertEquals(255, usage.status(), usage::toString);
    assertTrue(usage.err().startsWith("relabel: -E "), usage::toString);
  }

  /** The process's own environment reaches the verbs: RELABEL_THREADS is -T's default, checked as -T is. */
  @Test
  void relabelThreadsComesFromTheEnvironment() throws Exception {
    Path root = Files.createDirectories(dir.resolve("threads"));
    Files.createDirectories(root.resolve("some/sub"));
    List<String> args = List.of("setfiles", "-n", "--json", "-r", root.toString(), policy.toString(),
        root.resolve("some").toString());
    Run two = run(launcher, Map.of("RELABEL_THREADS", "2"), new byte[0], args.toArray(String[]::new));
    assertEquals(0, two.status(), two::toString);
    assertTrue(two.outText().contains("\"threads\":2,"), two::toString);
    Run bad = run(launcher, Map.of("RELABEL_THREADS", "x"), new byte[0], args.toArray(String[]::new));
    assertEquals(255, bad.status(), bad::toString);
    assertTrue(bad.err().startsWith("relabel: invalid thread count in RELABEL_THREADS: 'x'"), bad::toString);
  }

  /**
   * A walk starts no child process: JNA, asked for "c", used to run {@code ldconfig -p} to find
   * the C library at every start (a fork and an exec, and in the SELinux VM an exec of
   * ldconfig_exec_t that relabel's domain has no reason to be allowed). The class-loading log shows
   * whether the JDK's process machinery was ever loaded.
   */
  @Test
  void aWalkStartsNoChildProcess() throws Exception {
    Path root = Files.createDirectories(dir.resolve("no-child"));
    Files.createDirectories(root.resolve("some/sub"));
    Run r = run(launcher, Map.of("RELABEL_JAVA_OPTS", "-Xlog:class+load=info:stdout"), new byte[0],
        "setfiles", "-n", "-r", root.toString(), policy.toString(), root.resolve("some").toString());
    assertEquals(0, r.status(), r::toString);
    assertTrue(r.outText().contains("dev.relabel.nativeio.NativeIo "), "NativeIo was loaded: the walk ran");
    assertTrue(!r.outText().contains("java.lang.ProcessImpl "), "a child process was started");
  }

  /**
   * The short runs scripts make take the quick path, which loads no picocli class; one it declines
   * (a long option other than --json) loads picocli, which shows that the log would show it.
   */
  @Test
  void theQuickPathLoadsNoPicocli() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("quick/some"));
    Path file = Files.writeString(tree.resolve("file"), "");
    List<List<String>> quick = List.of(List.of("restorecon", "-n", file.toString()),
        List.of("setfiles", "-nv", policy.toString(), tree.toString()),
        List.of("lookup", "-f", policy.toString(), "/some/path"),
        List.of("setfiles", "-n", "--json", policy.toString(), tree.toString()));
    for (List<String> args : quick) {
      String classes = classesLoaded(args);
      assertTrue(classes.contains(" dev.relabel.cli.QuickPath "), args + " did not take the quick path");
      assertTrue(!classes.contains(" picocli."), args + " loaded picocli");
    }
    String declined = classesLoaded(List.of("lookup", "--file-contexts", policy.toString(), "/some/path"));
    assertTrue(declined.contains(" picocli.CommandLine "), "the class log shows no picocli where it is used");
  }

  /**
   * A one-file run starts neither java.util.logging (JNA's loggers are relabel's bridge) nor the
   * JDK's lambda machinery (its first lambda costs a few milliseconds to link): together about a
   * quarter of such a run (benchmarks/RESULTS.md, "Twelfth pass"), nor the worker pool and the
   * progress counter (a file has nothing beneath it to walk, and nothing shows progress); nor does
   * a walk start java.util.logging. A run the quick path declines links lambdas (picocli's), a walk
   * makes the pool and -p counts, which shows that the log would show each.
   */
  @Test
  void aOneFileRunStartsNoLoggingNoPoolAndLinksNoLambda() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("one/some"));
    Path file = Files.writeString(tree.resolve("file"), "");
    // The compiled policy, as goal 1 of issue 14 measures it: a text policy's parse links lambdas.
    // Compiled over two seconds after the text's last change: a stamp taken sooner is racy, and a
    // racy stamp has every run digest the text (SHA-256 links lambdas), as it should.
    Thread.sleep(2_100);
    Run compiled = run(launcher, Map.of(), new byte[0], "compile", "-f", policy.toString());
    assertEquals(0, compiled.status(), compiled::toString);
    String classes = classesLoaded(List.of("setfiles", "-n", policy.toString(), file.toString()));
    assertTrue(classes.contains(" dev.relabel.policy.CompiledSpecs "), "the compiled policy was not read");
    assertTrue(classes.contains(" com.sun.jna.Native "), "JNA was not started");
    assertTrue(!classes.contains(" java.util.logging."), "java.util.logging was started");
    assertTrue(!classes.contains(" java.lang.invoke.LambdaMetafactory "), "a lambda was linked");
    // Nothing beneath a file to walk: no worker pool, and no progress counted where none is shown.
    assertTrue(!classes.contains(" java.util.concurrent.ForkJoinPool "), "a one-file run made the worker pool");
    assertTrue(!classes.contains(" java.util.concurrent.atomic.LongAdder "), "a one-file run counted progress");
    assertTrue(!classesLoaded(List.of("restorecon", "-n", file.toString())).contains(" java.util.logging."),
        "restorecon started java.util.logging");
    String walk = classesLoaded(List.of("setfiles", "-n", "-r", dir.resolve("one").toString(), policy.toString(),
        tree.toString()));
    assertTrue(walk.contains(" com.sun.jna.Native "), "the walk did not start JNA");
    assertTrue(walk.contains(" dev.relabel.cli.julbridge.Logger "), "JNA's loggers are not the bridge's");
    assertTrue(!walk.contains(" java.util.logging."), "the walk started java.util.logging");
    assertTrue(walk.contains(" java.util.concurrent.ForkJoinPool "), "the class log shows no pool where a walk makes one");
    String shown = classesLoaded(List.of("setfiles", "-p", "-n", "-r", dir.resolve("one").toString(), policy.toString(),
        tree.toString()));
    assertTrue(shown.contains(" java.util.concurrent.atomic.LongAdder "), "the class log shows no counter where -p counts");
    String declined = classesLoaded(List.of("lookup", "--file-contexts", policy.toString(), "/some/path"));
    assertTrue(declined.contains(" java.lang.invoke.LambdaMetafactory "), "the class log shows no lambda where one is linked");
  }

  /**
   * The launcher asks the JVM for transparent huge pages exactly where the kernel offers them (on
   * request or always); where it has them off, the JVM would print a warning instead.
   */
  @Test
  void transparentHugePagesWhereTheKernelOffersThem() throws Exception {
    Path setting = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    String mode = Files.isReadable(setting) ? Files.readString(setting) : "";
    boolean offered = mode.contains("[always]") || mode.contains("[madvise]");
    Run r = run(launcher, Map.of("RELABEL_JAVA_OPTS", "-XX:+PrintFlagsFinal"), new byte[0], "--version");
    assertEquals(0, r.status(), r::toString);
    assertTrue(r.outText().matches("(?s).*\\bUseTransparentHugePages\\s+= " + offered + "\\b.*"),
        "kernel: " + mode.strip() + "\n" + r);
    assertEquals("", r.err());
  }

  /**
   * The launcher asks for one JIT compiler thread exactly where the kernel has one or two CPUs
   * online; elsewhere the JVM's own count stands.
   */
  @Test
  void oneCompilerThreadOnOneOrTwoCpus() throws Exception {
    Path online = Path.of("/sys/devices/system/cpu/online");
    String cpus = Files.isReadable(online) ? Files.readString(online).strip() : "";
    boolean few = cpus.equals("0") || cpus.equals("0-1");
    Run r = run(launcher, Map.of("RELABEL_JAVA_OPTS", "-XX:+PrintFlagsFinal"), new byte[0], "--version");
    assertEquals(0, r.status(), r::toString);
    assertEquals(few, r.outText().matches("(?s).*\\bCICompilerCount\\s+= 1\\s+\\{product\\} \\{command line\\}.*"),
        "CPUs online: " + cpus + "\n" + r);
    assertEquals("", r.err());
  }

  /**
   * The quick path's verbs map the quick path's own, smaller archive, which holds every class of
   * relabel's that such a run loads (a class missing from it would be read from the jar at every
   * start); the other verbs map the archive of every verb.
   */
  @Test
  void theQuickPathsVerbsMapTheirOwnArchive() throws Exception {
    Path target = launcher.getParent().getParent().toRealPath().resolve("relabel-cli/target");
    Path tree = Files.createDirectories(dir.resolve("archive/some"));
    Files.writeString(tree.resolve("file"), "");
    Path list = Files.writeString(dir.resolve("archive/list"), tree + "\n" + tree.resolve("file") + "\n");
    List<List<String>> quick = List.of(List.of("setfiles", "-nv", policy.toString(), tree.toString()),
        List.of("setfiles", "-nv", "-f", list.toString(), policy.toString()),
        List.of("lookup", "-f", policy.toString(), "/some/path"), List.of("--version"));
    for (List<String> args : quick) {
      Path log = Files.createTempFile(dir, "classes", ".log");
      Run r = run(launcher, Map.of("RELABEL_JAVA_OPTS", "-Xlog:cds=info -Xlog:class+load=info:file=" + log),
          new byte[0], args.toArray(String[]::new));
      assertEquals(0, r.status(), r::toString);
      assertTrue(r.outText().contains("Opened archive " + target.resolve("relabel-quick.jsa") + "."), r::toString);
      List<String> fromElsewhere = Files.readAllLines(log).stream()
          .filter(line -> line.contains(" dev.relabel.") && !line.endsWith(" source: shared objects file"))
          .toList();
      assertEquals(List.of(), fromElsewhere, args + ": relabel's classes not from the archive");
    }
    Run other = run(launcher, Map.of("RELABEL_JAVA_OPTS", "-Xlog:cds=info"), new byte[0], "compile", "--help");
    assertEquals(0, other.status(), other::toString);
    assertTrue(other.outText().contains("Opened archive " + target.resolve("relabel.jsa") + "."), other::toString);
  }

  /** The class-loading log of a run of {@code args}. */
  private String classesLoaded(List<String> args) throws IOException, InterruptedException {
    Path log = Files.createTempFile(dir, "classes", ".log");
    run(launcher, Map.of("RELABEL_JAVA_OPTS", "-Xlog:class+load=info:file=" + log), new byte[0],
        args.toArray(String[]::new));
    return Files.readString(log);
  }

  /**
   * Main begins JNA's initialisation on a thread of its own; where JNA cannot start, the error a
   * run then ends with is the one the first use of the kernel throws in a JVM without that thread,
   * said as relabel says an internal error, with setfiles' failure status.
   */
  @Test
  void aJnaWarmUpThatFailedChangesNotTheError() throws Exception {
    Path root = Files.createDirectories(dir.resolve("no-jna-tree/some"));
    String noJna = "-Djna.boot.library.path=" + dir.resolve("no-jna") + " -Djna.nosys=true -Djna.nounpack=true";
    Run relabel = run(launcher, Map.of("RELABEL_JAVA_OPTS", noJna), new byte[0], "setfiles", "-n", policy.toString(),
        root.toString());
    List<String> probe = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    probe.addAll(List.of(noJna.split(" ")));
    probe.addAll(List.of("-cp", System.getProperty("java.class.path"), KernelFirstUse.class.getName(), root.toString()));
    Process process = new ProcessBuilder(probe).redirectErrorStream(true).start();
    String cold = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    String firstLine = cold.lines().findFirst().orElse("");
    String uncaught = "Exception in thread \"main\" ";
    assertTrue(firstLine.startsWith(uncaught + "java.lang."), "JNA started after all: " + cold);
    assertEquals("relabel: internal error: " + firstLine.substring(uncaught.length()),
        relabel.err().lines().findFirst().orElse(""), relabel::toString);
    assertEquals(255, relabel.status(), relabel::toString);
  }

  /** A JVM's first use of the kernel, on its main thread: lstat of the path given. */
  public static final class KernelFirstUse {
    public static void main(String[] args) throws Exception {
      dev.relabel.nativeio.Kernel.linux().lstat(args[0].getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * JNA would extract its native library into its temporary directory at every start and fail
   * where it cannot; the launcher points it at the one the build unpacked. An unusable directory
   * (under /dev/null) stands for a read-only or noexec home and /tmp.
   */
  @Test
  void startsWhereJnaCouldNotUnpackItsLibrary() throws Exception {
    Path root = Files.createDirectories(dir.resolve("jna-tree"));
    Files.createDirectories(root.resolve("some/sub"));
    Run r = run(launcher, Map.of("RELABEL_JAVA_OPTS", "-Djna.tmpdir=/dev/null/jna"), new byte[0],
        "setfiles", "-n", "-r", root.toString(), policy.toString(), root.resolve("some").toString());
    assertEquals(0, r.status(), r::toString);
    assertEquals("", r.err());
  }

  /**
   * Every Java runtime installed beside the one that built relabel (at least that one) runs a
   * walk and a one-file restorecon with nothing on standard error: Java 24 and later warn about
   * JNA's System.load unless native access is enabled, and a runtime other than the build's
   * ignores the class data sharing archive silently.
   */
  @Test
  void everyInstalledRuntimeRunsWithoutWarnings() throws Exception {
    List<Path> homes = new ArrayList<>();
    homes.add(Path.of(System.getProperty("java.home")));
    Path installed = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(installed)) {
      try (var entries = Files.list(installed)) {
        for (Path home : entries.sorted().toList()) {
          if (Files.isExecutable(home.resolve("bin/java")) && !Files.isSymbolicLink(home)
              && !home.toRealPath().equals(homes.get(0).toRealPath())) {
            homes.add(home);
          }
        }
      }
    }
    Path root = Files.createDirectories(dir.resolve("runtimes/some/sub"));
    Path file = Files.writeString(root.resolve("file"), "");
    for (Path home : homes) {
      Map<String, String> env = Map.of("JAVA_HOME", home.toString());
      Run walk = run(launcher, env, new byte[0], "setfiles", "-n", "-r", dir.resolve("runtimes").toString(),
          policy.toString(), dir.resolve("runtimes/some").toString());
      assertEquals(0, walk.status(), home + ": " + walk);
      assertEquals("", walk.err(), home + ": " + walk);
      Run one = run(launcher, env, new byte[0], "restorecon", "-n", file.toString());
      assertEquals("", one.err(), home + ": " + one);
    }
  }

  @Test
  void worksThroughASymlinkWithJavaFromPath() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("relabel-link"), launcher);
    String path = Path.of(System.getProperty("java.home"), "bin") + ":/usr/bin:/bin";
    Map<String, String> env = new java.util.HashMap<>();
    env.put("JAVA_HOME", null);
    env.put("PATH", path);
    Run r;
    try {
      r = run(link, env, new byte[0], "lookup", "-f", policy.toString(), "/some/x");
    } finally {
      Files.delete(link); // JUnit warns about links out of a @TempDir
    }
    assertEquals("/some/x\t" + CONTEXT + "\n", r.outText(), r::toString);
    assertEquals(0, r.status());
  }

  /**
   * Called by its own path, the launcher runs no program but java (each one is a fork and an exec,
   * a few ms of every short run): with java alone on PATH it still finds its jar, JNA and archive.
   */
  @Test
  void needsNoProgramButJava() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("java-only"));
    Path java = Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
    Map<String, String> env = new java.util.HashMap<>();
    env.put("JAVA_HOME", null);
    env.put("PATH", bin.toString());
    Path root = Files.createDirectories(dir.resolve("java-only-tree/some"));
    Run r;
    try {
      r = run(launcher, env, new byte[0], "setfiles", "-n", "-r", root.getParent().toString(), policy.toString(),
          root.toString());
    } finally {
      Files.delete(java); // JUnit warns about links out of a @TempDir
    }
    assertEquals(0, r.status(), r::toString);
    assertEquals("", r.err());
  }

  /**
   * A checkout whose path holds a space: the launcher passes the jar's, JNA's and the archive's
   * paths whole (an unusable JNA temporary directory shows that JNA's was found).
   */
  @Test
  void worksFromAPathWithASpace() throws Exception {
    Path top = launcher.getParent().getParent();
    Path checkout = Files.createDirectories(dir.resolve("with space"));
    Path copy = Files.createDirectories(checkout.resolve("bin")).resolve("relabel");
    Files.copy(launcher, copy);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path target = Files.createDirectories(checkout.resolve("relabel-cli/target"));
    List<Path> links = new ArrayList<>();
    for (String built : List.of("relabel.jar", "relabel.jsa", "jna")) {
      if (Files.exists(top.resolve("relabel-cli/target").resolve(built))) {
        links.add(Files.createSymbolicLink(target.resolve(built), top.resolve("relabel-cli/target").resolve(built)));
      }
    }
    Path root = Files.createDirectories(dir.resolve("space-tree/some/sub"));
    Run r;
    try {
      r = run(copy, Map.of("RELABEL_JAVA_OPTS", "-Djna.tmpdir=/dev/null/jna"), new byte[0], "setfiles", "-n", "-r",
          dir.resolve("space-tree").toString(), policy.toString(), root.toString());
    } finally {
      for (Path link : links) {
        Files.delete(link); // JUnit warns about links out of a @TempDir
      }
    }
    assertEquals(0, r.status(), r::toString);
    assertEquals("", r.err());
  }

  @Test
  void saysHowToBuildWhenTheJarIsMissing() throws Exception {
    Path copy = Files.createDirectories(dir.resolve("checkout/bin")).resolve("relabel");
    Files.copy(launcher, copy);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
    Run r = run(copy, Map.of(), new byte[0], "--version");
    assertEquals(1, r.status());
    assertEquals(0, r.out().length);
    assertTrue(r.err().contains("relabel.jar is not built; run: mvn -B -DskipTests package"), r::toString);
  }

  @Test
  void saysWhenJavaIsMissing() throws Exception {
    Run r = run(launcher, Map.of("JAVA_HOME", dir.resolve("no-jdk").toString()), new byte[0], "--version");
    assertEquals(1, r.status());
    assertTrue(r.err().contains("not found: install a Java 17 (or later) runtime, or set JAVA_HOME"), r::toString);
  }
}
