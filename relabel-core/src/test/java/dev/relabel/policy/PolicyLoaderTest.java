package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the loader accepts and refuses, and the exact "FILE:LINE: message" of every refusal. */
class PolicyLoaderTest {
  private static final String CTX = "system_u:object_r:etc_t:s0";

  @TempDir
  Path dir;

  private Path fileContexts;

  private Path write(String name, String content) throws IOException {
    return write(name, content.getBytes(StandardCharsets.ISO_8859_1));
  }

  private Path write(String name, byte[] content) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, content);
    if (name.equals("file_contexts")) {
      fileContexts = file;
    }
    return file;
  }

  private List<String> errors(PolicyLoader loader) {
    PolicyException e = assertThrows(PolicyException.class, () -> loader.load(fileContexts));
    List<String> errors = e.errors().stream().map(PolicyError::toString).collect(Collectors.toList());
    assertEquals(String.join("\n", errors), e.getMessage());
    return errors;
  }

  private List<String> errors() {
    return errors(PolicyLoader.lenient());
  }

  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      if (part instanceof Integer b) {
        out.write(b);
      } else {
        byte[] s = ((String) part).getBytes(StandardCharsets.ISO_8859_1);
        out.write(s, 0, s.length);
      }
    }
    return out.toByteArray();
  }

  @Test
  void nonAsciiCharacters() throws IOException {
    write("file_contexts", bytes("/etc(/.*)? " + CTX + "\n/caf", 0xc3, 0xa9, " " + CTX + "\n"));
    assertEquals(List.of(fileContexts + ":2: Non-ASCII characters found"), errors());
  }

  @Test
  void nonAsciiInTheContextOrType() throws IOException {
    write("file_contexts", bytes("/a -", 0xe9, " " + CTX + "\n/b system_u:object_r:", 0xff, "_t:s0\n"));
    assertEquals(List.of(fileContexts + ":1: Non-ASCII characters found", fileContexts + ":2: Non-ASCII characters found"),
        errors());
  }

  @Test
  void missingFields() throws IOException {
    write("file_contexts", "/etc(/.*)? " + CTX + "\n\n   /lonely   \n");
    assertEquals(List.of(fileContexts + ":3: line is missing fields: expected REGEX [TYPE] CONTEXT"), errors());
  }

  @Test
  void invalidFileType() throws IOException {
    write("file_contexts", "/a -x " + CTX + "\n/b --- " + CTX + "\n/c d " + CTX + "\n/d -D " + CTX + "\n");
    String expected = " (expected one of -- -d -l -c -b -s -p)";
    assertEquals(List.of(
        fileContexts + ":1: invalid file type -x" + expected,
        fileContexts + ":2: invalid file type ---" + expected,
        fileContexts + ":3: invalid file type d" + expected,
        fileContexts + ":4: invalid file type -D" + expected), errors());
  }

  @Test
  void invalidRegex() throws IOException {
    write("file_contexts", "/ok " + CTX + "\n/a(b " + CTX + "\n/c[d " + CTX + "\n/e) " + CTX + "\n/f** " + CTX + "\n");
    List<String> errors = errors();
    assertEquals(4, errors.size(), errors.toString());
    String[] regexes = {"/a(b", "/c[d", "/e)", "/f**"};
    for (int i = 0; i < regexes.length; i++) {
      // The reason and offset are the regex translator's; the frame is the loader's.
      String prefix = fileContexts + ":" + (i + 2) + ": invalid regex " + regexes[i] + ": ";
      assertTrue(errors.get(i).startsWith(prefix), errors.get(i));
      assertTrue(errors.get(i).matches(".* at offset \\d+"), errors.get(i));
    }
  }

  @Test
  void malformedContext() throws IOException {
    write("file_contexts", String.join("\n",
        "/a foo",
        "/b system_u:object_r",
        "/c sys!em_u:object_r:etc_t:s0",
        "/d system_u::etc_t",
        "/e system_u:object_r:etc/t",
        "/f system_u:object_r:etc_t:s0-",
        "/g system_u:object_r:etc_t:s0:c0,c1",
        "/h system_u:object_r:etc_t",
        "/i system_u:object_r:etc_t:s0-s15:c0.c1023",
        "/j -- <<none>>",
        "/k system_u:object_r:etc_t:s0--s1",
        "/l system_u:object_r:etc_t:s0:c1,,c2",
        "/m system_u:object_r:etc_t:s0:c1.c3,c7",
        ""));
    assertEquals(List.of(
        fileContexts + ":1: invalid context foo: expected user:role:type[:range]",
        fileContexts + ":2: invalid context system_u:object_r: expected user:role:type[:range]",
        fileContexts + ":3: invalid context sys!em_u:object_r:etc_t:s0: malformed user 'sys!em_u'",
        fileContexts + ":4: invalid context system_u::etc_t: malformed role ''",
        fileContexts + ":5: invalid context system_u:object_r:etc/t: malformed type 'etc/t'",
        fileContexts + ":6: invalid context system_u:object_r:etc_t:s0-: malformed range 's0-'",
        fileContexts + ":11: invalid context system_u:object_r:etc_t:s0--s1: malformed range 's0--s1'",
        fileContexts + ":12: invalid context system_u:object_r:etc_t:s0:c1,,c2: malformed range 's0:c1,,c2'"),
        errors());
  }

  @Test
  void duplicatesUnderValidating() throws IOException {
    write("file_contexts", String.join("\n",
        "/a " + CTX,
        "/a " + CTX,
        "/b -- " + CTX,
        "/b system_u:object_r:bin_t:s0",
        "/c -- " + CTX,
        "/c -d " + CTX,
        "/d(/.*)? " + CTX,
        "/d(/.*)? -l system_u:object_r:lnk_t:s0",
        ""));
    assertEquals(List.of(
        fileContexts + ":2: Multiple same specifications for /a (first at line 1)",
        fileContexts + ":4: Multiple different specifications for /b (system_u:object_r:bin_t:s0 and " + CTX
            + "; first at line 3)",
        fileContexts + ":8: Multiple different specifications for /d(/.*)? (system_u:object_r:lnk_t:s0 and " + CTX
            + "; first at line 7)"), errors(PolicyLoader.validating()));
  }

  @Test
  void duplicatesAreAcceptedWithoutValidationAndOutsideTheBaseFile() throws Exception {
    write("file_contexts", "/a " + CTX + "\n/a system_u:object_r:other_t:s0\n");
    assertEquals(2, PolicyLoader.lenient().load(fileContexts).specs().size());
    // libselinux's nodups_specs runs on the base file alone, before .homedirs and .local load.
    write("file_contexts", "/a " + CTX + "\n");
    write("file_contexts.homedirs", "/a " + CTX + "\n");
    write("file_contexts.local", "/a " + CTX + "\n/a " + CTX + "\n");
    assertEquals(4, PolicyLoader.validating().load(fileContexts).specs().size());
  }

  @Test
  void missingBaseFile() {
    fileContexts = dir.resolve("file_contexts");
    assertEquals(List.of(fileContexts + ": No such file or directory"), errors());
  }

  @Test
  void missingSiblingsAreFine() throws Exception {
    write("file_contexts", "/a " + CTX + "\n");
    Policy policy = PolicyLoader.validating().load(fileContexts);
    assertEquals(1, policy.specs().size());
    assertEquals(List.of(), policy.localAliases());
    assertEquals(List.of(), policy.distAliases());
  }

  @Test
  void everyErrorOfEveryFileIsReportedTogether() throws IOException {
    write("file_contexts", String.join("\n",
        "# a comment",
        "/ok " + CTX,
        "/bad-type -q " + CTX,
        "/missing",
        "/ok2 -d " + CTX,
        "/bad-re( " + CTX,
        "/bad-ctx nonsense",
        ""));
    Path homedirs = write("file_contexts.homedirs", "/home/x\n");
    Path local = write("file_contexts.local", "\n\n/l -z " + CTX + "\n");
    List<String> errors = errors();
    assertEquals(6, errors.size(), errors.toString());
    assertEquals(fileContexts + ":3: invalid file type -q (expected one of -- -d -l -c -b -s -p)", errors.get(0));
    assertEquals(fileContexts + ":4: line is missing fields: expected REGEX [TYPE] CONTEXT", errors.get(1));
    assertTrue(errors.get(2).startsWith(fileContexts + ":6: invalid regex /bad-re(: "), errors.get(2));
    assertEquals(fileContexts + ":7: invalid context nonsense: expected user:role:type[:range]", errors.get(3));
    assertEquals(homedirs + ":1: line is missing fields: expected REGEX [TYPE] CONTEXT", errors.get(4));
    assertEquals(local + ":3: invalid file type -z (expected one of -- -d -l -c -b -s -p)", errors.get(5));
  }

  @Test
  void oneLineWithSeveralProblemsReportsEach() throws IOException {
    write("file_contexts", "/a( -q nonsense\n");
    List<String> errors = errors();
    assertEquals(3, errors.size(), errors.toString());
    assertTrue(errors.get(0).startsWith(fileContexts + ":1: invalid file type -q"));
    assertTrue(errors.get(1).startsWith(fileContexts + ":1: invalid regex /a(: "));
    assertTrue(errors.get(2).startsWith(fileContexts + ":1: invalid context nonsense"));
  }

  @Test
  void acceptsWhatLibselinuxAccepts() throws Exception {
    write("file_contexts", bytes(
        "# comment\n",
        "   # indented comment\n",
        "\n",
        " \t \n",
        "  /lead\t\t" + CTX + "\n",
        "/extra -- " + CTX + " ignored fields ", 0xe9, " even non-ASCII ones\n",
        "/crlf " + CTX + "\r\n",
        "/vtff", 0x0b, "-d", 0x0c, CTX + "\n",
        "/hash#in#regex -- " + CTX + " # trailing text is a 4th field\n",
        "/nul " + CTX, 0, "garbage after a NUL is not read\n",
        0, "/after-leading-nul " + CTX + "\n",
        "/last-line-without-newline <<none>>"));
    Policy policy = PolicyLoader.validating().load(fileContexts);
    List<String> specs = policy.specs().stream()
        .map(s -> s.line() + " " + s.regex() + " " + s.fileType() + " " + s.context() + " " + s.origin())
        .collect(Collectors.toList());
    assertEquals(List.of(
        "5 /lead ANY " + CTX + " BASE",
        "6 /extra REGULAR_FILE " + CTX + " BASE",
        "7 /crlf ANY " + CTX + " BASE",
        "8 /vtff DIRECTORY " + CTX + " BASE",
        "9 /hash#in#regex REGULAR_FILE " + CTX + " BASE",
        "10 /nul ANY " + CTX + " BASE",
        "12 /last-line-without-newline ANY <<none>> BASE"), specs);
    assertTrue(policy.specs().stream().allMatch(s -> s.file().equals(fileContexts)));
  }

  @Test
  void everyTypeFlag() throws Exception {
    write("file_contexts", "/a -- " + CTX + "\n/a -d " + CTX + "\n/a -l " + CTX + "\n/a -c " + CTX + "\n/a -b " + CTX
        + "\n/a -s " + CTX + "\n/a -p " + CTX + "\n/a " + CTX + "\n");
    List<FileType> types = PolicyLoader.lenient().load(fileContexts).specs().stream().map(Spec::fileType)
        .collect(Collectors.toList());
    assertEquals(List.of(FileType.REGULAR_FILE, FileType.DIRECTORY, FileType.SYMLINK, FileType.CHAR_DEVICE,
        FileType.BLOCK_DEVICE, FileType.SOCKET, FileType.FIFO, FileType.ANY), types);
  }

  @Test
  void loadsSiblingsInLibselinuxOrder() throws Exception {
    write("file_contexts", "/base " + CTX + "\n");
    Path homedirs = write("file_contexts.homedirs", "/home/u " + CTX + "\n");
    Path local = write("file_contexts.local", "\n/local " + CTX + "\n");
    Policy policy = PolicyLoader.lenient().load(fileContexts);
    assertEquals(List.of("/base", "/home/u", "/local"), policy.specs().stream().map(Spec::regex).toList());
    assertEquals(List.of(Origin.BASE, Origin.HOMEDIRS, Origin.LOCAL), policy.specs().stream().map(Spec::origin).toList());
    assertEquals(List.of(fileContexts, homedirs, local), policy.specs().stream().map(Spec::file).toList());
    assertEquals(List.of(1, 1, 2), policy.specs().stream().map(Spec::line).toList());
  }

  @Test
  void aliasFilesAreReadAsSelabelSubsInitReadsThem() throws Exception {
    write("file_contexts", "/a " + CTX + "\n");
    StringBuilder longLine = new StringBuilder("/chunk-src /chunk-dst");
    while (longLine.length() < 1022) {
      longLine.append(' ');
    }
    write("file_contexts.subs", bytes(
        "# comment\n",
        "   # indented comment\n",
        "/lib64 /usr/lib\n",
        "\t/indented\t /target  extra fields\n",
        "/single-field\n",
        "\n",
        0x1c, "/fs-is-no-space /x\n",                 // 0x1c is whitespace to Java, not to C
        "/cr /target-with-cr\r\n",
        "/nul", 0, "/after-nul /ignored\n",          // a NUL ends the first field like a space
        longLine.toString(), "/second /part\n",     // fgets reads 1022 bytes, then the rest
        "/no-newline-at-end /last"));
    write("file_contexts.subs_dist", "/bin /usr/bin\n/bin /usr/sbin\n");
    Policy policy = PolicyLoader.lenient().load(fileContexts);
    assertEquals(List.of(
        new PathAlias("/lib64", "/usr/lib"),
        new PathAlias("/indented", "/target"),
        new PathAlias("\u001c/fs-is-no-space", "/x"),
        new PathAlias("/cr", "/target-with-cr"),
        new PathAlias("/nul", "/after-nul"),
        new PathAlias("/chunk-src", "/chunk-dst"),
        new PathAlias("/second", "/part"),
        new PathAlias("/no-newline-at-end", "/last")), policy.localAliases());
    assertEquals(List.of(new PathAlias("/bin", "/usr/bin"), new PathAlias("/bin", "/usr/sbin")), policy.distAliases());
  }
}
