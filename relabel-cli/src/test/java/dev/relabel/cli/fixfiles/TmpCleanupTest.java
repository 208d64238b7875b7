package dev.relabel.cli.fixfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.SmallStack;
import dev.relabel.nativeio.DirEntry;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.OpenedStat;
import dev.relabel.policy.PathBytes;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fixfiles relabel's clean-up of /tmp, /var/tmp and /var/run, run as root in directories any user
 * can write: on real files and labels under a scratch root, with a directory swapped for a symlink
 * to a directory outside while the clean-up is inside it (what a local user racing it would do),
 * and names that are not UTF-8.
 */
class TmpCleanupTest {
  private static final String TMP_T = "system_u:object_r:tmp_t:s0";

  @TempDir
  Path scratch;
  private Path root;
  private Path victim;
  private final List<String> problems = new ArrayList<>();

  @BeforeEach
  void tree() throws Exception {
    AttrTrees.requireTools(false);
    root = scratch.resolve("root");
    for (String directory : List.of("tmp/evil/d", "var/tmp", "var/run", "lib")) {
      Files.createDirectories(root.resolve(directory));
    }
    Files.writeString(root.resolve("tmp/evil/d/passwd"), "tmp's\n");
    AttrTrees.touchRaw(root.resolve("tmp"), "caf\u00e9", scratch);
    AttrTrees.setLabel(root.resolve("tmp"), TMP_T, scratch);
    // outside /tmp: what the racing user points the symlink at
    victim = Files.createDirectories(scratch.resolve("etc"));
    Files.writeString(victim.resolve("passwd"), "root:x:0:0\n");
    // (no label: what the clean-up gives /tmp's label to, were it reached)
  }

  /**
   * A kernel that, once it has listed {@code tmp/evil/d}, moves that directory aside and puts a
   * symlink to {@link #victim} in its place: the clean-up goes on in the directory it opened.
   */
  private Kernel racing() {
    byte[] raced = PathBytes.of(root.resolve("tmp/evil/d"));
    return afterEachCall((method, args, result) -> {
      if (method.equals("readDirectory") && java.util.Arrays.equals((byte[]) args[1], raced)) {
        Path swapped = root.resolve("tmp/evil/d");
        Files.move(swapped, root.resolve("tmp/evil/moved"));
        Files.createSymbolicLink(swapped, victim);
      }
      return result;
    });
  }

  @FunctionalInterface
  private interface After {
    /** What the kernel's {@code method} called with {@code args} returns, given what it returned. */
    Object call(String method, Object[] args, Object result) throws Exception;
  }

  /** The real kernel, each call's result passed through {@code after}. */
  private static Kernel afterEachCall(After after) {
    Kernel real = Kernel.linux();
    return (Kernel) Proxy.newProxyInstance(Kernel.class.getClassLoader(), new Class<?>[] {Kernel.class},
        (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return after.call(method.getName(), args, result);
        });
  }

  private TmpCleanup cleanup(Kernel kernel) throws Exception {
    return new TmpCleanup(FixfilesHost.of(root.toString(), StandardCharsets.UTF_8), problems::add, kernel);
  }

  @Test
  void emptyingTmpRemovesWhatIsInTmpAndNothingASwappedSymlinkPointsAt() throws Exception {
    cleanup(racing()).empty();
    assertTrue(Files.exists(victim.resolve("passwd")), "a file outside /tmp was removed through the symlink");
    assertFalse(Files.exists(root.resolve("tmp/evil/moved/passwd")), "the directory opened is emptied");
    try (Stream<Path> left = Files.list(root.resolve("tmp"))) {
      // the moved directory and the symlink were made after the listing: left for the next run
      assertEquals(List.of("evil"), left.map(path -> path.getFileName().toString()).toList());
    }
    assertEquals(List.of(), problems.stream().filter(p -> !p.endsWith("evil/d: Not a directory")).toList(),
        problems::toString);
    assertTrue(Files.isDirectory(root.resolve("tmp")));
  }

  @Test
  void relabellingUnlabelledEntriesLabelsNothingASwappedSymlinkPointsAt() throws Exception {
    cleanup(racing()).afterRelabel();
    assertEquals("<none>", AttrTrees.labels(victim, scratch).get("passwd"), "labelled through the symlink");
    assertEquals(TMP_T, AttrTrees.label(root.resolve("tmp/evil/moved/passwd"), scratch));
    assertEquals(TMP_T, AttrTrees.label(root.resolve("tmp/evil"), scratch));
    assertEquals(List.of(), problems);
  }

  /**
   * A tree thousands of directories deep, which any user may make in /tmp, is relabelled, removed
   * as a stale session directory and emptied whole, on a stack that a walk recursing per level
   * overflows (it did: a StackOverflowError ended the clean-up, and the verb, there), holding no
   * more than {@link TmpCleanup#OPEN_LEVELS} descriptors and a few (it held one a level, so a tree
   * deeper than the process's descriptor limit was left with "Too many open files").
   */
  @Test
  void aTreeThousandsDeepInTmpIsCleanedUpWhole() throws Exception {
    int depth = 3_000;
    String down = "import os, sys\nos.chdir(sys.argv[1])\nfor i in range(" + depth + "):\n";
    // Java's file API fails past PATH_MAX; Python's goes one relative component at a time.
    String make = down + "    os.mkdir('d'); os.chdir('d')\nopen('leaf', 'w').close()\n";
    String labelOfLeaf = down + "    os.chdir('d')\n"
        + "print(os.getxattr('leaf', 'security.selinux', follow_symlinks=False).rstrip(b'\\0').decode())\n";
    Path deep = Files.createDirectory(root.resolve("tmp/deep"));
    Path session = Files.createDirectory(root.resolve("tmp/pulse-deep"));
    try {
      AttrTrees.check(List.of("python3", "-c", make, deep.toString()), scratch);
      AttrTrees.check(List.of("python3", "-c", make, session.toString()), scratch);
      int[] open = {0, 0}; // now, most
      SmallStack.call(() -> {
        cleanup(counting(open)).afterRelabel();
        return null;
      });
      assertEquals(TMP_T, AttrTrees.check(List.of("python3", "-c", labelOfLeaf, deep.toString()), scratch).strip());
      assertFalse(Files.exists(session), "the stale session directory is left");
      SmallStack.call(() -> {
        cleanup(counting(open)).empty();
        return null;
      });
      assertEquals(0, open[0], "descriptors left open");
      assertTrue(open[1] <= TmpCleanup.OPEN_LEVELS + 3, "at most " + open[1] + " descriptors open at once");
      try (Stream<Path> left = Files.list(root.resolve("tmp"))) {
        assertEquals(List.of(), left.toList());
      }
      assertEquals(List.of(), problems);
    } finally {
      AttrTrees.check(List.of("rm", "-rf", deep.toString(), session.toString()), scratch);
    }
  }

  /**
   * Below {@link TmpCleanup#OPEN_LEVELS} a directory gives its descriptor back while the walk is in
   * its subdirectory and reopens itself through that one's {@code ..}: when, the walk at the bottom
   * of a chain 100 deep, a user moves level 80 to /tmp/moved, level 79 is not reached through it
   * again (its {@code ..} is /tmp now): it is said, and the walk goes on from the nearest level
   * still open (level 40's entry after the chain, each listing read in name order here, is labelled).
   */
  @Test
  void aDeepDirectoryMovedWhileTheWalkIsBelowItIsLeftAndTheRestCleanedUp() throws Exception {
    Path chain = Files.createDirectories(root.resolve("tmp/deep" + "/d".repeat(100)));
    Files.writeString(chain.resolve("leaf"), "");
    Path later = Files.writeString(root.resolve("tmp/deep" + "/d".repeat(40) + "/later"), "");
    Path level79 = root.resolve("tmp/deep" + "/d".repeat(79));
    byte[] bottom = PathBytes.of(chain);
    Kernel moving = afterEachCall((method, args, result) -> {
      if (!method.equals("readDirectory")) {
        return result;
      }
      if (java.util.Arrays.equals((byte[]) args[1], bottom)) {
        Files.move(level79.resolve("d"), root.resolve("tmp/moved"));
      }
      List<DirEntry> sorted = new ArrayList<>();
      for (Object listed : (List<?>) result) {
        sorted.add((DirEntry) listed);
      }
      sorted.sort((a, b) -> java.util.Arrays.compareUnsigned(a.name(), b.name()));
      return sorted;
    });
    cleanup(moving).afterRelabel();
    assertEquals(List.of(level79 + ": moved while it was cleaned up; left as it is"), problems);
    assertEquals(TMP_T, AttrTrees.label(later, scratch), "the walk went on after the chain");
  }

  /** The real kernel, counting in {@code open} the directories open now ([0]) and the most at once ([1]). */
  private static Kernel counting(int[] open) {
    return afterEachCall((method, args, result) -> {
      if (method.equals("openDirectory")) {
        open[1] = Math.max(open[1], ++open[0]);
      } else if (method.equals("close")) {
        open[0]--;
      }
      return result;
    });
  }

  /** A name that is not UTF-8 is labelled, and removed, as any other (it was reached by a lossy path). */
  @Test
  void namesThatAreNotUtf8AreCleanedUpAsAnyOther() throws Exception {
    Path latin1 = PathBytes.path(root.resolve("tmp") + "/caf\uDCE9");
    byte[] bytes = PathBytes.of(latin1);
    cleanup(Kernel.linux()).afterRelabel();
    assertEquals(TMP_T, new String(Kernel.linux().getLabel(Kernel.AT_FDCWD, Kernel.nul(bytes), bytes),
        StandardCharsets.ISO_8859_1));
    cleanup(Kernel.linux()).empty();
    assertFalse(Files.exists(latin1, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    assertEquals(List.of(), problems);
  }

  /** A filesystem mounted below /tmp is neither emptied nor relabelled; its mount point stays. */
  @Test
  void aMountBelowTmpIsLeftAlone() throws Exception {
    Path mounted = Files.createDirectories(root.resolve("tmp/evil/m"));
    AttrTrees.mount(List.of("mount", "-t", "tmpfs", "tmpfs", mounted.toString()), scratch);
    try {
      Path inside = Files.writeString(mounted.resolve("kept"), "x");
      cleanup(Kernel.linux()).afterRelabel();
      assertEquals("<none>", AttrTrees.labels(mounted, scratch).get("kept"));
      cleanup(Kernel.linux()).empty();
      assertTrue(Files.exists(inside));
      assertFalse(Files.exists(root.resolve("tmp/evil/d")));
      assertEquals(List.of(), problems);
    } finally {
      AttrTrees.unmountAll(List.of(mounted), scratch);
    }
  }

  /**
   * A directory of /tmp's own filesystem bound below /tmp (an admin's {@code mount --bind} for a
   * build, or / itself, left by a fixfiles -M that was killed) is neither emptied nor relabelled:
   * its device is /tmp's, so the device alone let the clean-up remove every file it shows. On
   * this kernel statx tells the mount's root; as on a kernel before 5.8, where it cannot, the
   * listing's inode tells it.
   */
  @ParameterizedTest(name = "statx tells mount roots: {0}")
  @ValueSource(booleans = {true, false})
  void aBindMountOfTmpsOwnFilesystemIsLeftAlone(boolean statxTells) throws Exception {
    Path data = Files.createDirectories(root.resolve("srv/data/sub"));
    Path precious = Files.writeString(data.resolve("precious"), "x");
    Path mountPoint = Files.createDirectories(root.resolve("tmp/build/data"));
    AttrTrees.mount(List.of("mount", "--bind", root.resolve("srv/data").toString(), mountPoint.toString()), scratch);
    Kernel kernel = statxTells ? Kernel.linux() : afterEachCall((method, args, result) ->
        method.equals("statOpened") ? new OpenedStat(((OpenedStat) result).stat(), Optional.empty()) : result);
    try {
      cleanup(kernel).afterRelabel();
      assertEquals("<none>", AttrTrees.labels(data, scratch).get("precious"));
      cleanup(kernel).empty();
      assertTrue(Files.exists(precious));
      assertTrue(Files.exists(mountPoint));
      assertFalse(Files.exists(root.resolve("tmp/evil/d")));
      assertEquals(List.of(), problems);
    } finally {
      AttrTrees.unmountAll(List.of(mountPoint), scratch);
    }
  }

  /** A symlink in /tmp is relabelled and removed itself; what it points at is never touched. */
  @Test
  void aSymlinkIsHandledItselfNeverFollowed() throws Exception {
    Path link = Files.createSymbolicLink(root.resolve("tmp/link"), victim.resolve("passwd"));
    cleanup(Kernel.linux()).afterRelabel();
    assertEquals(TMP_T, AttrTrees.label(link, scratch));
    assertEquals("<none>", AttrTrees.labels(victim, scratch).get("passwd"));
    cleanup(Kernel.linux()).empty();
    assertFalse(Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    assertTrue(Files.exists(victim.resolve("passwd")));
  }
  /**
   * refpolicy (Debian 12's) gives the kernel's "file" initial context the unlabelled type too, so
   * the two types the clean-up looks for are one: a set of both refused it ("duplicate element"),
   * an internal error that ended {@code relabel relabel} before its clean-up on the SELinux VM.
   */
  @Test
  void theUnlabelledAndFileInitialContextsMayBeOneType() throws Exception {
    String unlabelled = "system_u:object_r:unlabeled_t:s0";
    Path initial = Files.createDirectories(root.resolve("sys/fs/selinux/initial_contexts"));
    Files.writeString(initial.resolve("unlabeled"), unlabelled + "\0");
    Files.writeString(initial.resolve("file"), unlabelled + "\0");
    Path file = Files.writeString(root.resolve("tmp/unlabelled"), "");
    Path fifo = root.resolve("tmp/fifo");
    AttrTrees.check(List.of("mkfifo", fifo.toString()), scratch);
    for (Path entry : List.of(file, fifo)) {
      AttrTrees.setLabel(entry, unlabelled, scratch);
    }
    cleanup(Kernel.linux()).afterRelabel();
    assertEquals(List.of(), problems);
    assertEquals(TMP_T, AttrTrees.label(file, scratch));
    assertFalse(Files.exists(fifo, java.nio.file.LinkOption.NOFOLLOW_LINKS));
  }
}
