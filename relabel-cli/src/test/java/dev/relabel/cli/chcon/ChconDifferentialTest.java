package dev.relabel.cli.chcon;

import dev.relabel.cli.Cli;
import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code relabel chcon -R -v} against coreutils' {@code chcon -R -v} on identical copies of real
 * trees (/etc and /usr/lib/systemd: hundreds of symlinks, some dangling, plus a FIFO, names with
 * a newline, a quote, a space, a '$' and bytes that are not UTF-8) whose labels were scrambled:
 * other users, roles, types and ranges, a range with a space, labels that are no context, one
 * with six colons, none at all. Each copy also holds failing entries: a ramfs without
 * {@code security.*} attributes (ENOTSUP), a read-only tmpfs (EROFS) and an immutable file
 * (EPERM). For a whole context, each field flag, several together, a bad field value and
 * {@code --reference}: the exit statuses, standard output and standard error (as sorted lists of
 * lines, each copy's path read as ROOT, the program's name as PROG) and every entry's raw label
 * must be identical. Then a second run of ours must change no ctime, where chcon's moves them.
 */
class ChconDifferentialTest {
  private static final List<String> SOURCES = List.of("/etc", "/usr/lib/systemd");
  private static final String CHCON = "/usr/bin/chcon";
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0",
    "staff_u:staff_r:etc_t:s0-s0:c0.c3",
    "system_u:object_r:container_file_t:s0:c1,c2",
    "unconfined_u:object_r:user_home_t:s0",
    "system_u:object_r:bin_t:s0 spaced range",
    "a:b:c:d:e:f:g",
    "not-a-context",
    "user_u:role_r",
  };
  /** The locale both run in: chcon's quotation marks and ours are then the same. */
  private static final Map<String, String> UTF8 = Map.of("LC_ALL", "C.UTF-8");

  @TempDir
  static Path base;
  private static Path template;
  private static String scrambleDump;
  private static Path reference;
  private static final List<Path> mounts = new ArrayList<>();
  private static final List<Path> immutable = new ArrayList<>();

  @BeforeAll
  static void buildScrambledTree() throws Exception {
    AttrTrees.requireTools(false);
    if (!Files.isExecutable(Path.of(CHCON)) || !Files.isExecutable(Path.of("/usr/bin/chattr"))) {
      String missing = "chcon or chattr is missing (apt-get install coreutils e2fsprogs)";
      AttrTrees.unavailable(missing);
    }
    template = base.resolve("template");
    for (String source : SOURCES) {
      Path target = template.resolve(source.substring(1)).getParent();
      Files.createDirectories(target);
      AttrTrees.check(List.of("cp", "-a", "--no-preserve=xattr", source, target.toString()), base);
    }
    Path odd = Files.createDirectories(template.resolve("odd names"));
    AttrTrees.touchRaw(odd, "caf\u00e9-\u00ff.conf", base);
    AttrTrees.touchRaw(odd, "new\nline", base);
    AttrTrees.touchRaw(odd, "it's", base);
    // A quote and an escaped character: quotearg's second pass (see ChconQuoting.file).
    AttrTrees.touchRaw(odd, "a'b\u0001", base);
    AttrTrees.touchRaw(odd, "\u0001a'b\u0001", base);
    AttrTrees.touchRaw(odd, "a'b\u0001c", base);
    AttrTrees.touchRaw(odd, "$HOME & ~tilde", base);
    AttrTrees.touchRaw(odd, "caf\u00c3\u00a9", base);
    Files.createSymbolicLink(odd.resolve("dangling"), Path.of("no/such/target"));
    Files.createSymbolicLink(odd.resolve("to-etc"), template.resolve("etc"));
    AttrTrees.check(List.of("mkfifo", odd.resolve("fifo").toString()), base);
    Files.createDirectories(template.resolve("noxattr"));
    Files.createDirectories(template.resolve("readonly"));
    Files.writeString(template.resolve("immutable"), "");

    List<String> entries = AttrTrees.entries(template, base);
    assertTrue(entries.size() > 1_500, "tree too small: " + entries.size());
    Random random = new Random(20261201);
    Map<String, String> scramble = new LinkedHashMap<>();
    for (String relative : entries) {
      int choice = random.nextInt(SCRAMBLED.length + 2);
      if (choice < SCRAMBLED.length) {
        scramble.put(relative, SCRAMBLED[choice]);
      } // else no label at all
    }
    scramble.put("immutable", SCRAMBLED[0]);
    scramble.put("readonly", SCRAMBLED[1]);
    scrambleDump = AttrTrees.restoreDump(scramble);
    reference = Files.writeString(base.resolve("reference"), "");
    AttrTrees.setLabel(reference, "system_u:object_r:var_t:s0", base);
  }

  /** Unmounts and makes deletable what the copies hold, then removes them (JUnit warns about symlinks out of a @TempDir). */
  @AfterAll
  static void removeCopies() throws Exception {
    for (Path file : immutable) {
      AttrTrees.run(List.of("chattr", "-i", file.toString()), base);
    }
    // Inner mounts first: the copies on the tmpfs hold mounts of their own.
    for (int i = mounts.size() - 1; i >= 0; i--) {
      AttrTrees.run(List.of("umount", mounts.get(i).toString()), base);
    }
    if (base != null && Files.isDirectory(base)) {
      AttrTrees.run(List.of("sh", "-c", "rm -rf -- \"$1\"/*", "sh", base.toString()), base.getParent());
    }
  }

  /** A scrambled copy, with a ramfs, a read-only tmpfs (one labelled file) and an immutable file in it. */
  private static Path scrambledCopy(String name) throws Exception {
    return scrambledCopy(base.resolve(name));
  }

  private static Path scrambledCopy(Path at) throws Exception {
    Path copy = AttrTrees.labelledCopy(template, at, scrambleDump, base);
    mount(List.of("mount", "-t", "ramfs", "relabel-noxattr", copy.resolve("noxattr").toString()), copy.resolve("noxattr"));
    Files.writeString(copy.resolve("noxattr/file"), "");
    Path readOnly = copy.resolve("readonly");
    mount(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-ro", readOnly.toString()), readOnly);
    Files.writeString(readOnly.resolve("file"), "");
    AttrTrees.setLabel(readOnly.resolve("file"), SCRAMBLED[3], base);
    AttrTrees.setLabel(readOnly, SCRAMBLED[1], base);
    AttrTrees.check(List.of("mount", "-o", "remount,ro", readOnly.toString()), base);
    Run chattr = AttrTrees.run(List.of("chattr", "+i", copy.resolve("immutable").toString()), base);
    if (chattr.status() != 0) {
      throw new AssertionError("chattr +i fails here (the test needs a filesystem with immutable files): " + chattr);
    }
    immutable.add(copy.resolve("immutable"));
    return copy;
  }

  private static void mount(List<String> command, Path at) throws Exception {
    AttrTrees.mount(command, base);
    mounts.add(at);
  }

  @ParameterizedTest(name = "chcon -R -v {0} (ours at -T {1})")
  @CsvSource(delimiter = '|', value = {
    "system_u:object_r:container_file_t:s0:c4,c5|2",
    "-t container_file_t|1",
    "-t container_file_t|3",
    "-u staff_u|2",
    "-r staff_r|2",
    "-l s0:c7|2",
    "-l s0 with a space|1",
    "-u user_u -r object_r -t etc_t -l s0-s0:c1.c9|2",
    "-t bad:type -r 'x y'|2",
    "--reference=REFERENCE|2",
  })
  void sameLabelsOutputAndStatusAsChcon(String flags, int threads) throws Exception {
    String name = flags.replaceAll("[^A-Za-z0-9]+", "_") + threads;
    Path theirs = scrambledCopy("chcon-" + name);
    Path ours = scrambledCopy("relabel-" + name);
    Map<String, String> before = AttrTrees.labels(theirs, base);
    assertEquals(before, AttrTrees.labels(ours, base), "copies must start identical");

    List<String> args = split(flags.replace("REFERENCE", reference.toString()));
    Run chcon = chcon(args, theirs);
    Run relabel = relabel(args, threads, ours);
    assertSameRun(chcon, theirs, relabel, ours);
    if (threads == 1) {
      Trees.assertSameOrder(chcon, theirs, relabel, ours, null);
    }
    assertEquals(1, chcon.status(), "the failing entries should make chcon fail: " + chcon);
    assertTrue(chcon.out().split("\n").length > 1_500, "every entry should have been announced");
    for (String reason : List.of(": Operation not supported", ": Read-only file system", ": Operation not permitted")) {
      assertTrue(chcon.err().contains(reason) || flags.contains("bad"), () -> "no '" + reason + "' in " + chcon.err());
    }

    Map<String, String> expected = AttrTrees.labels(theirs, base);
    Map<String, String> actual = AttrTrees.labels(ours, base);
    assertEquals(expected.keySet(), actual.keySet());
    List<String> differences = new ArrayList<>();
    int changed = 0;
    for (String path : expected.keySet()) {
      if (!expected.get(path).equals(actual.get(path))) {
        differences.add(path + ": chcon " + expected.get(path) + ", ours " + actual.get(path));
      }
      if (!expected.get(path).equals(before.get(path))) {
        changed++;
      }
    }
    assertEquals(List.of(), differences.subList(0, Math.min(30, differences.size())),
        differences.size() + " of " + expected.size() + " entries differ");
    assertTrue(flags.contains("bad") ? changed == 0 : changed > 500, "chcon changed " + changed + " labels");
  }

  @Test
  void preserveRootSkipsTheRootMetBeneathAnOperandAsChcon() throws Exception {
    Twins twins = onTwinTrees("rootbind", (root, binds) -> {
      // "/" bound (alone, read-only: were it walked, nothing could be written) beneath the operand.
      Files.writeString(root.resolve("f"), "");
      Path bind = Files.createDirectories(root.resolve("rb"));
      AttrTrees.check(List.of("mount", "--bind", "/", bind.toString()), base);
      binds.add(bind);
      AttrTrees.check(List.of("mount", "-o", "remount,bind,ro", bind.toString()), base);
    }, List.of("--preserve-root", "-t", "etc_t"), 2);
    assertEquals(1, twins.chcon().status(), twins.chcon()::toString);
    assertTrue(twins.chcon().err().contains("it is dangerous to operate recursively on"), twins.chcon()::toString);
    twins.assertSame();
  }

  /**
   * A directory the walk is inside, shown again beneath itself by a bind mount (fts's FTS_DC):
   * chcon warns that the directory structure is circular (five lines, the directory quoted only
   * where a shell or a colon needs it), neither labels nor enters it, goes on and fails. Here each
   * bind, directly inside the operand, shows the operand itself: on entering it the directory
   * gnulib's lazy cycle check (next test) remembers can only be the operand, so it catches it there:
   * every line, status and label the same, with a whole context and a field edit, at -T 1 and 2.
   * relabel used to walk each cycle (labelling the tree again under its names) and exit 0.
   */
  @ParameterizedTest(name = "chcon -R -v {0} (ours at -T {1})")
  @CsvSource(delimiter = '|', value = {
    "system_u:object_r:etc_t:s0|1",
    "-t tmp_t|2",
  })
  void warnsOfADirectoryCycleAsChconAndDoesNotEnterIt(String flags, int threads) throws Exception {
    List<String> cycles = List.of("c d:e", "it's", "a=b", "x{", "#1", "plain");
    Twins twins = onTwinTrees("cycle" + threads, (root, binds) -> {
      Files.writeString(Files.createDirectories(root.resolve("a")).resolve("f"), "");
      for (Path labelled : List.of(root, root.resolve("a"), root.resolve("a/f"))) {
        AttrTrees.setLabel(labelled, SCRAMBLED[3], base);
      }
      for (String cycle : cycles) {
        Path bind = Files.createDirectory(root.resolve(cycle));
        AttrTrees.mount(List.of("mount", "--bind", root.toString(), bind.toString()), base);
        binds.add(bind);
      }
    }, split(flags), threads);
    Run chcon = twins.chcon();
    assertEquals(1, chcon.status(), chcon::toString);
    assertEquals(cycles.size(), chcon.err().split("WARNING: Circular directory structure", -1).length - 1, chcon::toString);
    for (Path root : List.of(twins.theirs(), twins.ours())) {
      // One message: its last line, the directory, then a blank one.
      Run run = root.equals(twins.ours()) ? twins.relabel() : chcon;
      assertTrue(run.err().contains("\n  '" + root + "/c d:e'\n\n"), run::toString);
    }
    twins.assertSame();
  }

  /**
   * gnulib's cycle check in chcon's fts (without FTS_TIGHT_CYCLE_CHECK) is lazy: it remembers the
   * directory it entered at the 1st, 2nd, 4th, 8th... entry (moving up as the walk leaves it) and
   * finds a cycle only on meeting that one again, so which directory it names, and how much of the
   * cycle it labels again first, depend on how many directories it entered before. Bound two levels
   * beneath the operand, chcon labels the mount point and its entries under their second names and
   * names the directory below it; relabel, which checks every directory against those above it,
   * names the mount point and enters nothing under it. The same warning otherwise, status and
   * labels.
   */
  @Test
  void namesTheMountPointWhereChconsLazyCheckNamesADirectoryBelowIt() throws Exception {
    Twins twins = onTwinTrees("lazy-cycle", (root, binds) -> {
      Files.writeString(root.resolve("f"), "");
      Path bind = Files.createDirectories(root.resolve("d/xy"));
      AttrTrees.mount(List.of("mount", "--bind", root.toString(), bind.toString()), base);
      binds.add(bind);
    }, List.of("system_u:object_r:etc_t:s0"), 2);
    Run chcon = twins.chcon();
    Run ours = twins.relabel();
    List<String> theirErr = normalize(chcon.err(), twins.theirs());
    assertTrue(theirErr.contains("  ROOT/d/xy/d"), chcon::toString);
    List<String> expectedErr = new ArrayList<>(theirErr);
    expectedErr.set(expectedErr.indexOf("  ROOT/d/xy/d"), "  ROOT/d/xy");
    assertEquals(expectedErr, normalize(ours.err(), twins.ours()));
    List<String> expectedOut = new ArrayList<>(normalize(chcon.out(), twins.theirs()));
    assertTrue(expectedOut.removeAll(List.of("changing security context of 'ROOT/d/xy/f'",
        "changing security context of 'ROOT/d/xy'")), chcon::toString);
    assertEquals(expectedOut, normalize(ours.out(), twins.ours()));
    assertEquals(1, chcon.status(), chcon::toString);
    assertEquals(1, ours.status(), ours::toString);
    assertEquals(AttrTrees.labels(twins.theirs(), base), AttrTrees.labels(twins.ours(), base));
  }

  /** Makes a tree in {@code root}, each mount it makes listed in {@code binds}. */
  private interface TreeMaker {
    void make(Path root, List<Path> binds) throws Exception;
  }

  /** chcon's run and tree, and ours, once the trees' mounts are gone. */
  private record Twins(Path theirs, Run chcon, Path ours, Run relabel) {
    /** Same status, lines and labels. */
    void assertSame() throws Exception {
      assertSameRun(chcon, theirs, relabel, ours);
      assertEquals(AttrTrees.labels(theirs, base), AttrTrees.labels(ours, base));
    }
  }

  /**
   * chcon -R -v {@code flags} on a tree {@code make} makes, and relabel (at {@code threads}) on
   * another; then every mount in them is undone, so that their labels can be read whole.
   */
  private static Twins onTwinTrees(String name, TreeMaker make, List<String> flags, int threads) throws Exception {
    List<Path> binds = new ArrayList<>();
    try {
      Path theirs = Files.createDirectories(base.resolve(name + "-chcon"));
      make.make(theirs, binds);
      Run chcon = chcon(flags, theirs);
      Path ours = Files.createDirectories(base.resolve(name + "-relabel"));
      make.make(ours, binds);
      return new Twins(theirs, chcon, ours, relabel(flags, threads, ours));
    } finally {
      for (int i = binds.size() - 1; i >= 0; i--) {
        AttrTrees.run(List.of("umount", binds.get(i).toString()), base);
      }
    }
  }

  /**
   * gnulib's fts, chcon's walk, hands out a directory of more than 10,000 entries in inode order,
   * in batches of the 100,000 it reads at a time, but not on a tmpfs: at -T 1 relabel's -v lines
   * come in chcon's order for directories of 12,000 and 112,000 entries on the disk and of 12,000
   * on a tmpfs. Both run on the same tree (two copies of a large ext4 directory need not list
   * alike); names are created in a shuffled order, so that name, inode and listing orders differ.
   */
  @Test
  void largeDirectoriesComeInChconsOrder() throws Exception {
    assertNotEquals("tmpfs", AttrTrees.check(List.of("stat", "-f", "-c", "%T", base.toString()), base).strip(),
        "the sorted directories must lie on a disk");
    Path root = Files.createDirectories(base.resolve("large"));
    Path memory = Files.createDirectories(root.resolve("memory"));
    mount(List.of("mount", "-t", "tmpfs", "-o", "size=64m", "relabel-large", memory.toString()), memory);
    for (Map.Entry<String, Integer> directory : Map.of("mid", 12_000, "huge", 112_000, "memory", 12_000).entrySet()) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < directory.getValue(); i++) {
        names.add(String.format("f%06d", i));
      }
      java.util.Collections.shuffle(names, new java.util.Random(directory.getValue()));
      Path list = Files.write(base.resolve("names-" + directory.getKey()), names);
      Path at = Files.createDirectories(root.resolve(directory.getKey()));
      AttrTrees.check(List.of("sh", "-c", "cd \"$1\" && xargs touch < \"$2\"", "sh", at.toString(), list.toString()),
          base);
    }
    List<String> args = List.of("system_u:object_r:etc_t:s0"); // the files are unlabelled: a whole context
    Run chcon = chcon(args, root);
    Run relabel = relabel(args, 1, root);
    assertEquals(0, chcon.status(), () -> chcon.err());
    assertEquals(0, relabel.status(), () -> relabel.err());
    List<String> theirs = chcon.out().lines().toList();
    assertEquals(136_004, theirs.size());
    assertSameOrder(theirs, relabel.out().lines().toList(), "lines in fts's order");
  }

  /** The same lines in the same order; else where the first differs, with a few lines of each from there. */
  private static void assertSameOrder(List<String> chcon, List<String> ours, String what) {
    int same = 0;
    while (same < chcon.size() && same < ours.size() && chcon.get(same).equals(ours.get(same))) {
      same++;
    }
    int first = same;
    assertEquals(chcon.size(), first, () -> what + ": line " + (first + 1) + " differs: chcon's "
        + chcon.subList(first, Math.min(first + 3, chcon.size())) + ", ours "
        + ours.subList(Math.min(first, ours.size()), Math.min(first + 3, ours.size())));
    assertEquals(chcon.size(), ours.size(), what + ": as many lines as chcon's");
  }

  /**
   * With standard output and error in one stream (a terminal, {@code 2>&1} to a log), each error
   * comes where chcon prints it, right after its entry's -v line (chcon flushes standard output
   * before each error), not after the run's -v lines as relabel first printed them (seen on the
   * SELinux VM: an unprivileged user's failures).
   */
  @Test
  void errorsComeAmongTheVerboseLinesWhereChconPrintsThem() throws Exception {
    Path theirs = scrambledCopy("chcon-merged");
    Path ours = scrambledCopy("relabel-merged");
    Run chcon = AttrTrees.run(List.of("sh", "-c", "exec \"$0\" \"$@\" 2>&1", CHCON, "-R", "-v", "-t", "etc_t",
        theirs.toString()), base, null, UTF8);
    Cli.Result relabel = Cli.runMerged("chcon", "-R", "-v", "-t", "etc_t", ours.toString());
    assertEquals(1, chcon.status(), chcon::toString);
    assertTrue(chcon.out().contains(": Operation not permitted"), "no failure among chcon's lines: " + chcon);
    assertSameOrder(lines(chcon.out(), theirs), lines(relabel.outLatin1(), ours), "the lines in chcon's order");
  }

  @Test
  void aSecondRunChangesNoCtimeWhereChconsMovesThem() throws Exception {
    // On a tmpfs: ext4 itself leaves an attribute rewritten with the same value alone, ctime
    // included, so there chcon's second run would move no ctime either; tmpfs moves it at every
    // write, as the filesystems container volumes live on do.
    Path fs = Files.createDirectory(base.resolve("rerun-tmpfs"));
    mount(List.of("mount", "-t", "tmpfs", "-o", "size=256m", "relabel-rerun", fs.toString()), fs);
    Path theirs = scrambledCopy(fs.resolve("chcon"));
    Path ours = scrambledCopy(fs.resolve("relabel"));
    String context = "system_u:object_r:container_file_t:s0:c1,c2";
    List<String> args = List.of(context);
    chcon(args, theirs);
    relabel(args, 2, ours);
    assertEquals(AttrTrees.labels(theirs, base), AttrTrees.labels(ours, base));

    Map<String, String> theirCtimes = ctimes(theirs);
    Map<String, String> ourCtimes = ctimes(ours);
    Thread.sleep(50); // a later ctime must be a different one (ext4 keeps them to the nanosecond, in jiffies)
    Run chcon = chcon(args, theirs);
    Run relabel = relabel(args, 2, ours);
    assertSameRun(chcon, theirs, relabel, ours);
    assertEquals(AttrTrees.labels(theirs, base), AttrTrees.labels(ours, base));
    List<String> moved = changedCtimes(ourCtimes, ctimes(ours));
    assertEquals(List.of(), moved.subList(0, Math.min(20, moved.size())), moved.size() + " ctimes moved");
    // The check can fail: chcon, which writes a whole context over every entry, moves them.
    int theirsMoved = changedCtimes(theirCtimes, ctimes(theirs)).size();
    assertTrue(theirsMoved > 1_500, "chcon should have moved ctimes, moved " + theirsMoved + " of " + theirCtimes.size());
  }

  /** Every entry's ctime in nanoseconds ({@code %C@}), by relative path, without following symlinks. */
  private static Map<String, String> ctimes(Path root) throws Exception {
    Map<String, String> times = new LinkedHashMap<>();
    String out = AttrTrees.check(List.of("find", root.toString(), "-printf", "%P\\t%C@\\0"), base);
    for (String record : out.split("\0")) {
      int tab = record.lastIndexOf('\t');
      times.put(record.substring(0, tab), record.substring(tab + 1));
    }
    return times;
  }

  private static List<String> changedCtimes(Map<String, String> before, Map<String, String> after) {
    List<String> changed = new ArrayList<>();
    before.forEach((path, time) -> {
      if (!time.equals(after.get(path))) {
        changed.add(path + ": " + time + " -> " + after.get(path));
      }
    });
    return changed;
  }

  /** Splits flags at spaces, keeping what single quotes hold together. */
  private static List<String> split(String flags) {
    List<String> args = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean quoted = false;
    for (char c : flags.toCharArray()) {
      if (c == '\'') {
        quoted = !quoted;
      } else if (c == ' ' && !quoted) {
        if (word.length() > 0) {
          args.add(word.toString());
          word.setLength(0);
        }
      } else {
        word.append(c);
      }
    }
    if (word.length() > 0) {
      args.add(word.toString());
    }
    // "-l s0 with a space": a range may hold spaces; the words after -l's value belong to it.
    int range = args.indexOf("-l");
    if (range >= 0 && range + 2 < args.size() && !args.get(range + 2).startsWith("-")) {
      String value = String.join(" ", args.subList(range + 1, args.size()));
      args = new ArrayList<>(args.subList(0, range + 1));
      args.add(value);
    }
    return args;
  }

  private static Run chcon(List<String> flags, Path root) throws Exception {
    List<String> command = Trees.list(CHCON, "-R", "-v");
    command.addAll(flags);
    command.add(root.toString());
    return AttrTrees.run(command, base, null, UTF8);
  }

  private static Run relabel(List<String> flags, int threads, Path root) {
    List<String> command = Trees.list("chcon", "-R", "-v", "-T", String.valueOf(threads));
    command.addAll(flags);
    command.add(root.toString());
    return Trees.relabel(command);
  }

  /** Same status, and the same lines on each stream, as sorted lists (a line repeated must be repeated as often). */
  static void assertSameRun(Run chcon, Path chconRoot, Run ours, Path ourRoot) {
    assertEquals(chcon.status(), ours.status(), () -> "exit status\n--- chcon\n" + chcon + "\n--- ours\n" + ours);
    assertSameLines(normalize(chcon.out(), chconRoot), normalize(ours.out(), ourRoot), "stdout");
    assertSameLines(normalize(chcon.err(), chconRoot), normalize(ours.err(), ourRoot), "stderr");
  }

  private static void assertSameLines(List<String> expected, List<String> actual, String what) {
    List<String> missing = new ArrayList<>(expected);
    for (String line : actual) {
      missing.remove(line);
    }
    List<String> extra = new ArrayList<>(actual);
    for (String line : expected) {
      extra.remove(line);
    }
    assertTrue(missing.isEmpty() && extra.isEmpty(), () -> what + " differs: " + missing.size()
        + " lines only from chcon, e.g. " + missing.stream().limit(10).toList() + "; " + extra.size()
        + " only from ours, e.g. " + extra.stream().limit(10).toList());
  }

  /** The lines (one char per byte), sorted, the root's path read as ROOT and chcon's name and "relabel: " as "PROG: ". */
  static List<String> normalize(String text, Path root) {
    List<String> lines = lines(text, root);
    java.util.Collections.sort(lines);
    return lines;
  }

  /** The lines (one char per byte) in order, the root's path read as ROOT and chcon's name and "relabel: " as "PROG: ". */
  private static List<String> lines(String text, Path root) {
    String rootText = new String(root.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    List<String> lines = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      String l = line.replace(rootText, "ROOT");
      if (l.startsWith(CHCON + ": ")) {
        l = "PROG: " + l.substring(CHCON.length() + 2);
      } else if (l.startsWith("relabel: ")) {
        l = "PROG: " + l.substring("relabel: ".length());
      }
      lines.add(l);
    }
    return lines;
  }
}
