package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** {@code relabel} run in-process, with results in {@link dev.relabel.fixtures.AttrTrees}' form. */
public final class Trees {
  private Trees() {}

  /** Runs {@code relabel ARGS} in-process; the result in the same form as a process's. */
  public static Run relabel(List<String> args) {
    return relabel(new byte[0], args);
  }

  public static Run relabel(byte[] stdin, List<String> args) {
    Cli.Result r = Cli.run(stdin, StandardCharsets.UTF_8, args.toArray(String[]::new));
    return new Run(r.status(), r.outLatin1(), new String(r.errBytes(), StandardCharsets.ISO_8859_1));
  }

  public static String[] array(List<String> list) {
    return list.toArray(String[]::new);
  }

  public static List<String> list(String... items) {
    return new ArrayList<>(Arrays.asList(items));
  }

  /**
   * At -T 1 one worker walks as the reference's fts does: the same lines on standard output in the
   * same order (fts lists a directory as readdir does, and the two copies, made alike, must list
   * alike, as find shows), each copy's path read as ROOT. Lines holding {@code unordered} (null:
   * none) are left out: a hard-linked inode's, which relabel labels after the walk.
   */
  public static void assertSameOrder(Run reference, Path referenceRoot, Run ours, Path ourRoot, String unordered)
      throws Exception {
    assertEquals(inOrder(listing(referenceRoot), referenceRoot, unordered),
        inOrder(listing(ourRoot), ourRoot, unordered), "the copies must list alike");
    assertEquals(inOrder(reference.out(), referenceRoot, unordered), inOrder(ours.out(), ourRoot, unordered),
        "lines in fts's order");
  }

  /** find's listing of {@code root}, in readdir order (run beside it: its output files stay out). */
  private static String listing(Path root) throws Exception {
    return AttrTrees.check(List.of("find", root.toString()), root.getParent());
  }

  private static List<String> inOrder(String text, Path root, String unordered) {
    String rootText = new String(root.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    return text.lines().filter(line -> unordered == null || !line.contains(unordered))
        .map(line -> line.replace(rootText, "ROOT")).toList();
  }

  /**
   * {@code count} names, in byte order, that a directory of this filesystem lists in that order
   * when they are made in that order (ext4 lists by its names' hashes, the same in every directory
   * of one filesystem; tmpfs newest first, where none is found): setfiles' walk then meets a tree's
   * entries in the order relabel decides them by (the smallest name of an inode). Probed in a
   * directory of {@code scratch}, among the two-letter names made in byte order: the longest run of
   * its listing that is in byte order, cut to {@code count}.
   */
  public static List<String> listedInByteOrder(Path scratch, int count) throws Exception {
    Path probe = Files.createTempDirectory(scratch, "probe");
    for (char first = 'a'; first <= 'z'; first++) {
      for (char second = 'a'; second <= 'z'; second++) {
        Files.createFile(probe.resolve("" + first + second));
      }
    }
    List<String> listed;
    try (var stream = Files.list(probe)) {
      listed = stream.map(p -> p.getFileName().toString()).toList();
    }
    // The longest increasing subsequence of the listing (patience sorting, with back links).
    int[] tails = new int[listed.size()];
    int[] previous = new int[listed.size()];
    int length = 0;
    for (int i = 0; i < listed.size(); i++) {
      int low = 0;
      int high = length;
      while (low < high) {
        int middle = (low + high) >>> 1;
        if (listed.get(tails[middle]).compareTo(listed.get(i)) < 0) {
          low = middle + 1;
        } else {
          high = middle;
        }
      }
      previous[i] = low > 0 ? tails[low - 1] : -1;
      tails[low] = i;
      length = Math.max(length, low + 1);
    }
    if (length < count) {
      throw new AssertionError("no " + count + " names listed in byte order in " + probe + ": " + listed);
    }
    String[] run = new String[length];
    for (int i = length - 1, at = tails[length - 1]; i >= 0; i--, at = previous[at]) {
      run[i] = listed.get(at);
    }
    return List.of(run).subList(0, count);
  }
}
