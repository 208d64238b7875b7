package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arguments are bytes: {@code bin/relabel} run as a process, under {@code LC_ALL=C} and {@code
 * LC_ALL=C.UTF-8}, with arguments holding a Latin-1 byte ({@code \xe9}, no character in either
 * locale) and UTF-8 text ({@code é}, two bytes that are no character under C), beside coreutils'
 * chcon, Debian's setfiles and matchpathcon given the very same bytes. The JDK decodes {@code main}'s
 * arguments with the locale's charset and replaces what it cannot decode; relabel must not: each
 * case compares the labels the two tools leave on the same tree, what they print on standard
 * output, and their exit status. (A process is needed: the arguments are read back from the
 * process's own command line, which an in-process test does not have.)
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ArgumentBytesIT {
  /** The tree each case runs on: a Latin-1 name and a UTF-8 one, each a directory with a file, and a file. */
  private static final String TREE = """
      rm -rf "$T" && mkdir -p "$T/e"$'\\xe9' "$T/eé" && touch "$T/e"$'\\xe9'/x "$T/eé/y" "$T/f"
      setfattr -h -n security.selinux -v system_u:object_r:old_t:s0 "$T" "$T"/* "$T"/*/*
      """;

  /**
   * The cases, as bash commands run in {@code $T} with {@code $TOOL} for the tool's name (chcon,
   * setfiles, matchpathcon) and {@code $FC} a policy that labels the tree.
   */
  private static final List<String> CASES = List.of(
      "$TOOL -v system_u:object_r:typé_t:s0 f",
      "$TOOL -v -R system_u:object_r:b_t:s0 e$'\\xe9' eé",
      "$TOOL -v -t c$'\\xe9'_t e$'\\xe9'/x",
      "setfattr -h -n security.selinux -v ref_t e$'\\xe9'/x && $TOOL -v --reference e$'\\xe9'/x f eé/y",
      "$TOOL -v \"$FC\" \"$T\"/e$'\\xe9' \"$T\"/eé/y",
      "$TOOL -v \"$FC\" \"$T/e?\" \"$T/e??\"",
      "printf '%s\\n' \"$T\"/e$'\\xe9'/x \"$T/eé\" > ../list && $TOOL -v -f ../list \"$FC\"",
      "$TOOL -v -e \"$T\"/e$'\\xe9' \"$FC\" \"$T\"",
      "$TOOL -f \"$FC\" \"$T\"/e$'\\xe9'/x \"$T/eé\"",
      // files the JDK opens (a policy, a list of paths) named by bytes the locale cannot decode
      "cp \"$FC\" ../fc$'\\xe9' && $TOOL -v ../fc$'\\xe9' \"$T\"/f",
      "printf '%s\\n' \"$T\"/eé/y > ../list$'\\xe9' && $TOOL -v -f ../list$'\\xe9' \"$FC\"",
      "cp \"$FC\" ../fc$'\\xe9' && $TOOL -f ../fc$'\\xe9' \"$T\"/e$'\\xe9'/x");

  private static Path launcher;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    launcher = LauncherScript.launcher("ArgumentBytesIT");
    AttrTrees.requireTools(true);
  }

  @BeforeEach
  void writePolicy() throws IOException {
    Files.writeString(dir.resolve("file_contexts"), dir.resolve("t") + "(/.*)?\tsystem_u:object_r:new_t:s0\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"C", "C.UTF-8"})
  void argumentsReachTheEngineAsTheBytesGiven(String locale) throws Exception {
    for (String command : CASES) {
      String reference = command.contains("$FC") ? (command.contains("$TOOL -f") ? "matchpathcon" : "setfiles")
          : "chcon";
      String expected = run(locale, command, reference);
      String actual = run(locale, command, launcher + " " + reference.replace("matchpathcon", "lookup"));
      assertEquals(expected, actual, "LC_ALL=" + locale + ": " + command);
    }
  }

  /**
   * An archive, its output and a directory to archive are opened through the JDK's file API, which
   * cannot name bytes the locale does not decode from text: they are named by their bytes (a file
   * URI) instead. The archives made under such names are byte for byte those made under plain ones.
   */
  @ParameterizedTest
  @ValueSource(strings = {"C", "C.UTF-8"})
  void filesOnlyTheJdkOpensAreOpenedWhateverBytesTheirNamesHold(String locale) throws Exception {
    String out = run(locale, String.join("\n",
        "tar -cf ../in.tar . && cp ../in.tar ../in$'\\xe9'.tar && mkdir -p ../d$'\\xe9' && cp -a . ../d$'\\xe9'/t",
        "$TOOL -f \"$FC\" ../in.tar ../out.tar && $TOOL -f \"$FC\" ../in$'\\xe9'.tar ../out$'\\xe9'.tar"
            + " && cmp ../out.tar ../out$'\\xe9'.tar && echo same-labelled-archive",
        // OUT through a FIFO named so, written through as it comes
        "rm -f ../p$'\\xe9' && mkfifo ../p$'\\xe9' && (cat ../p$'\\xe9' > ../fifo.tar &"
            + " $TOOL -f \"$FC\" ../in$'\\xe9'.tar ../p$'\\xe9'; wait) && cmp ../out.tar ../fifo.tar && echo fifo-same",
        // -C DIR named so, its archive written inside it (and left out of itself)
        "$TOOL -f \"$FC\" -C ../d$'\\xe9' ../d$'\\xe9'/self.tar 2>../err && tar --quoting-style=literal -tf ../d$'\\xe9'/self.tar | LC_ALL=C sort | tr '\\n' ' '",
        "echo; grep -c 'file is the archive; not dumped' ../err",
        // a policy named so
        "cp \"$FC\" ../fc$'\\xe9' && $TOOL -f ../fc$'\\xe9' ../in.tar ../fc-named.tar && cmp ../out.tar ../fc-named.tar"
            + " && echo policy-named"), launcher + " tar");
    assertTrue(out.startsWith("same-labelled-archive\nfifo-same\n./ ./t/ ./t/e\u00c3\u00a9/ ./t/e\u00c3\u00a9/y ./t/e\u00e9/"
        + " ./t/e\u00e9/x ./t/f \n1\npolicy-named\nstatus 0\n"), out);
  }

  /**
   * And messages name such files by their bytes, not by the U+FFFD the JDK's own exceptions put in
   * their place: DIR and OUT missing (the tar verb writes both through the JDK), a socket so named
   * left out of DIR's archive, a hard link under two specs, a plan's header.
   */
  @ParameterizedTest
  @ValueSource(strings = {"C", "C.UTF-8"})
  void messagesNameSuchFilesByTheirBytes(String locale) throws Exception {
    String out = run(locale, String.join("; ",
        "$TOOL tar -C ../n$'\\xe9' ../o.tar 2>&1",
        "$TOOL tar --check -C ../n$'\\xe9' 2>&1",
        "$TOOL tar -C . ../n$'\\xe9'/o.tar 2>&1",
        "$TOOL tar /dev/null ../n$'\\xe9'/o.tar 2>&1",
        "mkdir ../s && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(b\"../s/k\\xe9\")'"
            + " && $TOOL tar -C ../s ../s.tar 2>&1",
        // a hard-linked member under two specs
        "mkdir -p ../h/a ../h/b && touch ../h/a/x$'\\xe9' && ln ../h/a/x$'\\xe9' ../h/b/y$'\\xe9' && tar --sort=name -C ../h -cf ../h.tar ."
            + " && printf '/a(/.*)?\\tsystem_u:object_r:a_t:s0\\n/b(/.*)?\\tsystem_u:object_r:b_t:s0\\n' > ../h.fc"
            + " && $TOOL tar -f ../h.fc ../h.tar ../h2.tar 2>&1",
        "$TOOL plan -f \"$FC\" ../n$'\\xe9' 2>/dev/null | head -1"), launcher.toString());
    String missing = "No such file or directory\n";
    assertTrue(out.startsWith("relabel: ../n\u00e9: " + missing + "relabel: ../n\u00e9: " + missing
        + "relabel: ../n\u00e9/o.tar: " + missing + "relabel: ../n\u00e9/o.tar: " + missing
        + "relabel: ../s: ./k\u00e9: socket ignored\n"
        + "relabel: conflicting specifications for /b/y\u00e9 and /a/x\u00e9, using system_u:object_r:a_t:s0.\n"
        + "Plan for ../n\u00e9 with " + dir.resolve("file_contexts") + ":\nstatus 0\n"), out);
  }

  /** So is fixfiles' --root: the system installed under a directory so named is checked as under a plain one. */
  @ParameterizedTest
  @ValueSource(strings = {"C", "C.UTF-8"})
  void aRootWhoseNameTheLocaleCannotDecodeIsCheckedAsAnyOther(String locale) throws Exception {
    String out = run(locale, "mkdir -p ../r$'\\xe9'/etc && touch ../r$'\\xe9'/etc/passwd && cd .."
        + " && $TOOL --root r$'\\xe9' \"$PWD\"/r$'\\xe9'/etc", launcher + " check");
    String root = dir + "/r\u00e9";
    assertTrue(out.startsWith("Would relabel " + root + "/etc from (null) to system_u:object_r:etc_t:s0\n"
        + "Would relabel " + root + "/etc/passwd from (null) to system_u:object_r:etc_t:s0\nstatus 0\n"), out);
  }

  /**
   * fixfiles_exclude_dirs names directories by their bytes too: a Latin-1 name and a UTF-8 one are
   * skipped under either locale (it was read one char per byte, then encoded in the locale's
   * charset: neither was found, and both were relabelled).
   */
  @ParameterizedTest
  @ValueSource(strings = {"C", "C.UTF-8"})
  void excludedDirectoriesAreNamedByTheirBytes(String locale) throws Exception {
    String out = run(locale, "mkdir -p ../x/etc/selinux ../x/srv/d$'\\xe9' ../x/srv/eé ../x/srv/ok"
        + " && touch ../x/srv/d$'\\xe9'/f ../x/srv/eé/f ../x/srv/ok/f"
        + " && printf '/srv/d\\351\\n/srv/e\\303\\251\\n' > ../x/etc/selinux/fixfiles_exclude_dirs"
        + " && cd .. && $TOOL -T 1 --root x \"$PWD\"/x/srv", launcher + " check");
    String srv = dir + "/x/srv";
    String var = " from (null) to system_u:object_r:var_t:s0\n";
    assertTrue(out.startsWith("skipping the directory " + srv + "/d\u00e9\nskipping the directory " + srv
        + "/e\u00c3\u00a9\nWould relabel " + srv + var + "Would relabel " + srv + "/ok" + var
        + "Would relabel " + srv + "/ok/f" + var + "status 0\n"), out);
  }

  /**
   * Makes the tree, runs {@code command} in it with {@code tool} as {@code $TOOL}: its exit status,
   * standard output, and the labels of the tree after it, as one text (bytes shown as Latin-1).
   */
  private String run(String locale, String command, String tool) throws IOException, InterruptedException {
    String script = "set -u\n" + TREE + "cd \"$T\"\n(" + command.replace("$TOOL", tool) + ") 2>/dev/null\n"
        + "echo \"status $?\"\n"
        + "cd \"$T\" && getfattr -R -h -n security.selinux --absolute-names . 2>/dev/null | grep -v '^$'\n";
    return LauncherScript.run(dir, script, Map.of("T", dir.resolve("t").toString(),
        "FC", dir.resolve("file_contexts").toString(), "LC_ALL", locale));
  }
}
