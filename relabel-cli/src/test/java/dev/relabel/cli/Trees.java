package dev.relabel.cli;

import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.charset.StandardCharsets;
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
}
