package dev.relabel.cli.lookup;

import dev.relabel.cli.Cli;
import dev.relabel.cli.RelabelCommand;
import dev.relabel.cli.common.Io;
import static dev.relabel.cli.Cli.latin1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.cli.Cli.Result;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code relabel lookup} on small policies, run in-process. */
class LookupCommandTest {
  private static final String A = "system_u:object_r:a_t:s0";
  private static final String C_DIR = "system_u:object_r:c_dir_t:s0";
  private static final String C_FILE = "system_u:object_r:c_file_t:s0";
  private static final String FF = "system_u:object_r:ff_t:s0";
  private static final String ROOT_T = "system_u:object_r:root_t:s0";

  @TempDir
  Path dir;

  private Path policy;

  @BeforeEach
  void writePolicy() throws IOException {
    policy = write("file_contexts",
        "# a small policy\n"
            + "/\t\t" + ROOT_T + "\n"
            + "/a(/.*)?\t\t" + A + "\n"
            + "/a/none\t\t<<none>>\n"
            + "/c\t-d\t" + C_DIR + "\n"
            + "/c\t--\t" + C_FILE + "\n"
            + "/bin/\\xff.*\t\t" + FF + "\n");
  }

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, latin1(content));
    return file;
  }

  private Result lookup(String... args) {
    List<String> all = new ArrayList<>(List.of("lookup", "-f", policy.toString()));
    all.addAll(List.of(args));
    return Cli.run(all.toArray(String[]::new));
  }

  private Result lookupStdin(String stdin, String... args) {
    List<String> all = new ArrayList<>(List.of("lookup", "-f", policy.toString(), "--stdin"));
    all.addAll(List.of(args));
    return Cli.runWithStdin(latin1(stdin), all.toArray(String[]::new));
  }

  @Test
  void singlePath() {
    Result r = lookup("/a/b");
    assertEquals("/a/b\t" + A + "\n", r.outLatin1(), r::toString);
    assertEquals("", r.err());
    assertEquals(0, r.status());
  }

  @Test
  void severalPathsInOrder() {
    Result r = lookup("/a/x", "/", "/a", "/a/none", "/a/y/z");
    assertEquals(List.of("/a/x\t" + A, "/\t" + ROOT_T, "/a\t" + A, "/a/none\t<<none>>", "/a/y/z\t" + A), r.lines(),
        r::toString);
    assertEquals(0, r.status());
  }

  @Test
  void typeOptionSelectsTypedSpecs() {
    assertEquals(List.of("/c\t" + C_DIR), lookup("-m", "dir", "/c").lines());
    assertEquals(List.of("/c\t" + C_FILE), lookup("--type", "file", "/c").lines());
    // any: every spec applies, and the later of the two exact specs wins, as in libselinux.
    assertEquals(List.of("/c\t" + C_FILE), lookup("/c").lines());
    Result r = lookup("-m", "lnk_file", "/c");
    assertEquals(List.of("/c\t<<nomatch>>"), r.lines(), r::toString);
    assertEquals(1, r.status());
  }

  @Test
  void everyTypeNameIsAccepted() {
    for (FileType type : FileType.values()) {
      Result r = lookup("-m", type.className(), "/a/x");
      assertEquals(List.of("/a/x\t" + A), r.lines(), r::toString);
      assertEquals(0, r.status());
    }
  }

  @Test
  void pipeIsAFifoAsMatchpathconSpellsIt() {
    for (String type : List.of("pipe", "fifo_file")) {
      assertEquals(List.of("/c\t<<nomatch>>"), lookup("-m", type, "/c").lines(), type);
      assertEquals(List.of("/c\t<<nomatch>>"), lookupStdin(type + "\t/c\n").lines(), type);
    }
  }

  @Test
  void unknownTypeIsAUsageError() {
    Result r = lookup("-m", "regular", "/a/x");
    assertEquals(1, r.status());
    assertEquals(0, r.out().length);
    assertEquals(1, r.errLines().size(), r::toString);
    assertTrue(r.err().startsWith("relabel: Invalid value for option '--type': unknown file type 'regular'"), r::toString);
  }

  @Test
  void noneIsPrintedAndSucceeds() {
    Result r = lookup("/a/none");
    assertEquals("/a/none\t<<none>>\n", r.outLatin1());
    assertEquals(0, r.status());
  }

  @Test
  void noMatchIsPrintedAndFails() {
    Result r = lookup("/a/x", "/zzz/q", "relative", "/a/none");
    assertEquals(List.of("/a/x\t" + A, "/zzz/q\t<<nomatch>>", "relative\t<<nomatch>>", "/a/none\t<<none>>"),
        r.lines(), r::toString);
    assertEquals("", r.err());
    assertEquals(1, r.status());
  }

  @Test
  void argumentsAreTakenLiterally() throws IOException {
    write("args", "/a/x\n");
    Result r = lookup("@" + dir.resolve("args"), "--", "-m", "/a/@x");
    assertEquals(List.of("@" + dir.resolve("args") + "\t<<nomatch>>", "-m\t<<nomatch>>", "/a/@x\t" + A), r.lines(),
        r::toString);
    assertEquals(1, r.status());
  }

  @Test
  void argumentsAreEncodedBackWithTheLocaleCharset() {
    // UTF-8 locale: "é" arrives as the two bytes C3 A9 and is printed as those bytes.
    Result utf8 = Cli.run(new byte[0], StandardCharsets.UTF_8, "lookup", "-f", policy.toString(), "/a/\u00e9");
    assertArrayEquals(concat("/a/".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xc3, (byte) 0xa9},
        latin1("\t" + A + "\n")), utf8.out());
    // A Latin-1 locale: byte FF, which the policy's \xff matches.
    Result latin = Cli.run(new byte[0], StandardCharsets.ISO_8859_1, "lookup", "-f", policy.toString(), "/bin/\u00ffz");
    assertArrayEquals(latin1("/bin/\u00ffz\t" + FF + "\n"), latin.out(), latin::toString);
  }

  @Test
  void stdinMixesPathsAndTypedRequestsAndKeepsEveryByte() {
    String input = "/a/x\n"
        + "dir\t/c\n"
        + "file\t/c\n"
        + "/bin/\u00ff\u00fe\n" // not UTF-8
        + "/a/cr\r\n" // the CR belongs to the path
        + "any\t/a/tab\there\n" // the second tab belongs to the path
        + "lnk_file\t/c\n"
        + "/a/none\n"
        + "/a/last-without-newline";
    Result r = lookupStdin(input);
    assertEquals(List.of(
        "/a/x\t" + A,
        "/c\t" + C_DIR,
        "/c\t" + C_FILE,
        "/bin/\u00ff\u00fe\t" + FF,
        "/a/cr\r\t" + A,
        "/a/tab\there\t" + A,
        "/c\t<<nomatch>>",
        "/a/none\t<<none>>",
        "/a/last-without-newline\t" + A), r.lines(), r::toString);
    assertEquals("", r.err());
    assertEquals(1, r.status()); // the lnk_file request matched nothing
  }

  @Test
  void stdinLinesWithoutTypeUseTheTypeOption() {
    Result r = lookupStdin("/c\nfile\t/c\n", "-m", "dir");
    assertEquals(List.of("/c\t" + C_DIR, "/c\t" + C_FILE), r.lines(), r::toString);
    assertEquals(0, r.status());
  }

  @Test
  void stdinUnknownTypeAnswersErrorAndGoesOn() {
    Result r = lookupStdin("/a/x\nregular\t/a/y\n\u00ff\t/a/z\n/a/w\n");
    assertEquals(List.of("/a/x\t" + A, "/a/y\t<<error>>", "/a/z\t<<error>>", "/a/w\t" + A), r.lines(), r::toString);
    assertEquals(List.of(
        "relabel: stdin line 2: unknown file type 'regular' (expected " + FileTypeConverter.NAMES + ")",
        "relabel: stdin line 3: unknown file type '\\xff' (expected " + FileTypeConverter.NAMES + ")"),
        r.errLines());
    assertEquals(1, r.status());
  }

  @Test
  void stdinEmptyPathsAndNulBytesAreErrors() {
    Result r = lookupStdin("\nfile\t\n/a/\u0000x\n/a/ok\n");
    assertEquals(List.of("\t<<error>>", "\t<<error>>", "/a/\u0000x\t<<error>>", "/a/ok\t" + A), r.lines(), r::toString);
    assertEquals(List.of("relabel: stdin line 1: empty path", "relabel: stdin line 2: empty path",
        "relabel: stdin line 3: path contains a NUL byte"), r.errLines());
    assertEquals(1, r.status());
  }

  @Test
  void stdinEmptyInputAnswersNothing() {
    Result r = lookupStdin("");
    assertEquals(0, r.out().length);
    assertEquals(0, r.status());
  }

  @Test
  void stdinManyLinesAcrossBufferBoundariesKeepTheirOrder() throws Exception {
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.lenient().load(policy));
    String[] shapes = {"/a/", "/zz/", "/bin/\u00ff", "/a/none", "/c", "/"};
    String[] types = {"", "dir\t", "file\t", "any\t", "lnk_file\t"};
    StringBuilder input = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 40_000; i++) {
      String path = shapes[i % shapes.length] + (i % 7 == 0 ? "" : Integer.toString(i, 36));
      if (i == 20_000) {
        path = "/a/" + "long".repeat(50_000); // one line longer than the read buffer
      }
      String typeField = types[i % types.length];
      FileType type = typeField.isEmpty() ? FileType.ANY : FileType.fromClassName(typeField.strip()).orElseThrow();
      input.append(typeField).append(path).append('\n');
      String answer = matcher.lookup(path, type).display();
      expected.add(path + "\t" + (answer.isEmpty() ? "<<nomatch>>" : answer));
    }
    Result r = lookupStdin(input.toString());
    assertEquals(expected, r.lines());
  }

  @Test
  void stdinAnswersEachRequestBeforeWaitingForTheNext() {
    // A caller that writes a request and waits for its answer: the answer must be out before
    // relabel blocks reading the next request.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> seenBeforeEachRead = new ArrayList<>();
    InputStream interactive = new InputStream() {
      private final byte[][] requests = {latin1("/a/1\n"), latin1("dir\t/c\n"), latin1("/zz\n")};
      private int next;

      @Override
      public int read() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int read(byte[] b, int off, int len) {
        seenBeforeEachRead.add(out.toString(StandardCharsets.ISO_8859_1));
        if (next == requests.length) {
          return -1;
        }
        byte[] request = requests[next++];
        System.arraycopy(request, 0, b, off, request.length);
        return request.length;
      }

      @Override
      public int available() {
        return 0;
      }
    };
    int status = RelabelCommand.commandLine(new Io(interactive, out, err, StandardCharsets.UTF_8))
        .execute("lookup", "-f", policy.toString(), "--stdin");
    assertEquals(List.of(
        "",
        "/a/1\t" + A + "\n",
        "/a/1\t" + A + "\n/c\t" + C_DIR + "\n",
        "/a/1\t" + A + "\n/c\t" + C_DIR + "\n/zz\t<<nomatch>>\n"), seenBeforeEachRead);
    assertEquals(1, status);
  }

  @Test
  void stdinWithPathArgumentsIsAUsageError() {
    Result r = lookupStdin("/a\n", "/a/x");
    assertEquals(1, r.status());
    assertEquals(0, r.out().length);
    assertEquals(List.of("relabel: --stdin takes no PATH arguments (see 'relabel lookup --help')"), r.errLines());
  }

  @Test
  void noPathIsAUsageError() {
    Result r = lookup();
    assertEquals(1, r.status());
    assertEquals(List.of("relabel: missing PATH (or --stdin) (see 'relabel lookup --help')"), r.errLines());
  }

  @Test
  void unknownOptionIsAUsageError() {
    Result r = lookup("-Z", "/a");
    assertEquals(1, r.status());
    assertEquals(1, r.errLines().size(), r::toString);
    assertTrue(r.err().startsWith("relabel: Unknown option: '-Z'"), r::toString);
  }

  @Test
  void policyErrorsAreAllPrintedAndFail() throws IOException {
    policy = write("bad/file_contexts",
        "/ok\t" + A + "\n"
            + "/x\t-q\t" + A + "\n"
            + "/y(\t" + A + "\n"
            + "/z\tnot-a-context\n");
    write("bad/file_contexts.local", "/lonely\n");
    Result r = lookup("/ok");
    assertEquals(0, r.out().length);
    assertEquals(1, r.status());
    List<String> err = r.errLines();
    assertEquals(4, err.size(), r::toString);
    assertTrue(err.get(0).startsWith("relabel: " + policy + ":2: invalid file type -q"), r::toString);
    assertTrue(err.get(1).startsWith("relabel: " + policy + ":3: invalid regex /y("), r::toString);
    assertTrue(err.get(2).startsWith("relabel: " + policy + ":4: "), r::toString);
    assertTrue(err.get(3).startsWith("relabel: " + policy + ".local:1: "), r::toString);
    assertTrue(err.stream().noneMatch(line -> line.contains("Exception") || line.contains("\tat ")), r::toString);
  }

  @Test
  void missingPolicyFileFails() {
    Path missing = dir.resolve("no/such/file_contexts");
    Result r = Cli.run("lookup", "-f", missing.toString(), "/a");
    assertEquals(1, r.status());
    assertEquals(0, r.out().length);
    assertEquals(List.of("relabel: " + missing + ": No such file or directory"), r.errLines());
  }

  @Test
  void rootWithPolicyFileIsRemovedFromEachPath() {
    Result r = lookup("-r", "/mnt/sys/", "/mnt/sys/a/x", "/mnt/sys", "/mnt/sys/", "/mnt/sys/c", "/mnt/system/a",
        "/a/x");
    assertEquals(List.of(
        "/mnt/sys/a/x\t" + A,
        "/mnt/sys\t" + ROOT_T,
        "/mnt/sys/\t" + ROOT_T,
        "/mnt/sys/c\t" + C_FILE,
        "/mnt/system/a\t<<error>>",
        "/a/x\t<<error>>"), r.lines(), r::toString);
    assertEquals(List.of("relabel: /mnt/system/a: not under ROOT /mnt/sys", "relabel: /a/x: not under ROOT /mnt/sys"),
        r.errLines());
    assertEquals(1, r.status());
  }

  @Test
  void rootSlashRemovesNothing() {
    Result r = lookup("-r", "/", "/a/x");
    assertEquals(List.of("/a/x\t" + A), r.lines(), r::toString);
    assertEquals(0, r.status());
  }

  @Test
  void rootWithoutPolicyFileFindsThePolicyUnderIt() throws IOException {
    Path root = dir.resolve("sysroot");
    write("sysroot/etc/selinux/config", "SELINUX=enforcing\nSELINUXTYPE=small\n");
    write("sysroot/etc/selinux/small/contexts/files/file_contexts", "/etc(/.*)?\t" + A + "\n");
    Result r = Cli.run("lookup", "-r", root.toString(), root + "/etc/passwd", root + "/usr");
    assertEquals(List.of(root + "/etc/passwd\t" + A, root + "/usr\t<<nomatch>>"), r.lines(), r::toString);
    assertEquals(1, r.status());

    Result stdin = Cli.runWithStdin(latin1("dir\t" + root + "/etc\n"), "lookup", "-r", root.toString(), "--stdin");
    assertEquals(List.of(root + "/etc\t" + A), stdin.lines(), stdin::toString);
    assertEquals(0, stdin.status());
  }

  @Test
  void rootWithoutSelinuxConfigFails() {
    Path root = dir.resolve("empty-root");
    Result r = Cli.run("lookup", "-r", root.toString(), root + "/etc");
    assertEquals(1, r.status());
    assertEquals(1, r.errLines().size(), r::toString);
    assertTrue(r.err().startsWith("relabel: " + root.resolve("etc/selinux/config") + ": no SELinux configuration"),
        r::toString);
  }

  @Test
  void helpDocumentsTheOutputAndExitStatus() {
    Result r = Cli.run("lookup", "--help");
    assertEquals(0, r.status());
    String help = r.outLatin1();
    for (String expected : List.of("Usage: relabel lookup", "-f, --file-contexts=FILE_CONTEXTS", "-r, --root=ROOT",
        "-m, --type=TYPE", "--stdin", "PATH<TAB>ANSWER", "<<none>>", "<<nomatch>>", "<<error>>", "TYPE<TAB>PATH",
        "Exit status:", "fifo_file")) {
      assertTrue(help.contains(expected), () -> "help lacks " + expected + ":\n" + help);
    }
    assertEquals("", r.err());
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
