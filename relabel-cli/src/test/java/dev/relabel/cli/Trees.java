package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.charset.StandardCharsets;
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
}
