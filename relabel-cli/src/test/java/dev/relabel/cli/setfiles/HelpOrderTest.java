package dev.relabel.cli.setfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.cli.Cli;
import dev.relabel.cli.common.HelpOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * setfiles and restorecon share {@link SetfilesFlags} but list its options among their own, each
 * in its own order (the order their help had before the mixin): through {@code relabel VERB
 * --help} (only that verb built, as {@code main} builds it) and {@code relabel help VERB} (every
 * verb built) alike. And {@link HelpOrder} refuses an order that leaves a visible option out.
 */
class HelpOrderTest {
  private static final Pattern OPTION_LINE = Pattern.compile("^  (-[-\\w\\[\\]]+|    --[-\\w\\[\\]]+)", Pattern.MULTILINE);

  /** The first name of each option line of a help text, in order. */
  private static List<String> options(String help) {
    List<String> names = new ArrayList<>();
    Matcher m = OPTION_LINE.matcher(help);
    while (m.find()) {
      names.add(m.group(1).strip());
    }
    return names;
  }

  private static void assertOrder(String verb, List<String> expected) {
    Cli.Result alone = Cli.run(verb, "--help");
    assertEquals(0, alone.status(), alone::toString);
    assertEquals(expected, options(alone.outLatin1()), alone::toString);
    Cli.Result viaHelp = Cli.run("help", verb);
    assertEquals(0, viaHelp.status(), viaHelp::toString);
    assertEquals(expected, options(viaHelp.outLatin1()), viaHelp::toString);
  }

  @Test
  void setfilesListsItsOptionsInItsOrder() {
    assertOrder("setfiles", List.of("-F", "-U", "-n", "-v", "-r", "-e", "-i", "-m", "-A", "-j", "-T", "-C", "-q", "-f",
        "-s", "-0", "-d", "-D", "-I", "-p", "--[no-]progress", "--json", "-W", "-h", "-V"));
  }

  @Test
  void restoreconListsItsOptionsInItsOrder() {
    assertOrder("restorecon", List.of("-R", "-F", "-n", "-v", "-e", "-i", "-x", "-m", "-T", "-f", "-s", "-0", "-W",
        "-D", "-I", "-q", "-p", "--[no-]progress", "--json", "-h", "-V"));
  }

  @Test
  void eachVerbWordsTheSharedFlagsItsOwnWay() {
    String setfiles = Cli.run("setfiles", "--help").outLatin1().replaceAll("\\s+", " ");
    String restorecon = Cli.run("restorecon", "--help").outLatin1().replaceAll("\\s+", " ");
    assertTrue(setfiles.contains("ignored with a warning, as setfiles does."), setfiles);
    assertTrue(restorecon.contains("ignored with a warning, as restorecon does."), restorecon);
    assertTrue(setfiles.contains("as setfiles' selabel_stats does."), setfiles);
    assertTrue(restorecon.contains("as restorecon's selabel_stats does."), restorecon);
    assertTrue(setfiles.contains("-q No effect (deprecated in setfiles, kept for scripts)."), setfiles);
    assertTrue(restorecon.contains("-q No effect (deprecated in restorecon, kept for scripts)."), restorecon);
    assertTrue(setfiles.contains("(as -f -), without the hard link check."), setfiles);
    assertTrue(restorecon.contains("-s Read the paths from standard input (as -f -). -0"), restorecon);
  }

  static final class Shared {
    @Option(names = "-a")
    boolean a;
  }

  @Command(name = "unplaced", sortOptions = false)
  static final class Unplaced {
    @Option(names = "-b")
    boolean b;

    @Mixin
    Shared shared;

    @Spec
    void spec(CommandSpec spec) {
      HelpOrder.apply(spec, "-a");
    }
  }

  @Command(name = "placed", sortOptions = false)
  static final class Placed {
    @Option(names = "-b")
    boolean b;

    @Mixin
    Shared shared;

    @Spec
    void spec(CommandSpec spec) {
      HelpOrder.apply(spec, "-a", "-b");
    }
  }

  @Test
  void anOptionLeftOutOfTheOrderIsRefused() {
    Exception e = assertThrows(Exception.class, () -> new CommandLine(new Unplaced()));
    String messages = e + " " + e.getCause();
    assertTrue(messages.contains("[-b] has no place in its help"), messages);
    CommandLine placed = new CommandLine(new Placed());
    assertEquals(List.of("-a", "-b"), placed.getCommandSpec().options().stream().map(o -> o.names()[0]).toList());
    placed.parseArgs("-b", "-a");
    assertTrue(((Placed) placed.getCommand()).b && ((Placed) placed.getCommand()).shared.a);
  }
}
