package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.cli.common.Getopt;
import dev.relabel.cli.common.Io;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The quick path's letters against picocli's model of each verb, built the normal way: every
 * letter the quick path takes is an option of that verb, taking an argument exactly where
 * picocli's option does, and taken twice only where picocli's option takes several values; so
 * that the getopt letters, applied beside each option's declaration, cannot drift from it.
 */
class QuickPathModelTest {
  /** Arguments to offer a letter that takes one: one of them is valid for each such letter. */
  private static final List<String> VALUES = List.of("1", "dir", "/srv");

  private static CommandSpec model(String verb) {
    Io io = new Io(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(), new ByteArrayOutputStream(),
        StandardCharsets.UTF_8);
    return RelabelCommand.commandLine(io).getSubcommands().get(verb).getCommandSpec();
  }

  @ParameterizedTest
  @CsvSource({"restorecon, 0DFIRTWefimnqrsvx", "setfiles, 0ACDFIRTUWdefijmnqrsv", "lookup, fmr"})
  void everyLetterTakenIsAnOptionOfTheVerbWithTheSameArity(String verb, String letters) {
    CommandSpec model = model(verb);
    StringBuilder taken = new StringBuilder();
    for (char letter = '!'; letter <= '~'; letter++) {
      if (letter == '-') {
        continue; // "--" ends the options (or starts a long one): always declined
      }
      String flag = "-" + letter;
      Getopt once = Getopt.read(new String[] {flag, VALUES.get(0), "PATH"}, 0, QuickPath.verb(verb));
      if (!once.took(letter)) {
        continue;
      }
      taken.append(letter);
      OptionSpec option = model.findOption(flag);
      assertNotNull(option, verb + ": the quick path takes " + flag + ", which picocli's model does not have");
      assertEquals(option.arity().max() > 0, once.tookArgument(letter),
          verb + " " + flag + ": picocli's arity is " + option.arity());
      if (takenTwice(verb, flag, once.tookArgument(letter))) {
        assertTrue(option.isMultiValue(), verb + ": the quick path takes " + flag + " twice, picocli once");
      }
    }
    assertEquals(letters, taken.toString(), verb + ": the letters the quick path takes");
  }

  @ParameterizedTest
  @CsvSource({"restorecon", "setfiles", "lookup"})
  void theLongFlagsTakenAreFlagsOfTheVerbTakenOnce(String verb) {
    CommandSpec model = model(verb);
    List<String> taken = new java.util.ArrayList<>();
    for (OptionSpec option : model.options()) {
      for (String name : option.names()) {
        if (!name.startsWith("--")) {
          continue;
        }
        if (Getopt.read(new String[] {name, "PATH"}, 0, QuickPath.verb(verb)).operands() == null) {
          continue;
        }
        taken.add(name);
        assertEquals(0, option.arity().max(), verb + " " + name + ": the quick path takes it as a flag");
        assertNull(Getopt.read(new String[] {name, name, "PATH"}, 0, QuickPath.verb(verb)).operands(),
            verb + " " + name + ": picocli takes it once, the quick path twice");
      }
    }
    assertEquals(List.of("--json"), taken, verb + ": the long flags the quick path takes");
    assertNull(Getopt.read(new String[] {"--no-such-option", "PATH"}, 0, QuickPath.verb(verb)).operands());
  }

  /** Whether the quick path reads {@code flag} given twice (with some valid argument, when it takes one). */
  private static boolean takenTwice(String verb, String flag, boolean withArgument) {
    if (!withArgument) {
      return Getopt.read(new String[] {flag, flag, "PATH"}, 0, QuickPath.verb(verb)).operands() != null;
    }
    for (String value : VALUES) {
      String[] args = {flag, value, flag, value, "PATH"};
      if (Getopt.read(args, 0, QuickPath.verb(verb)).operands() != null) {
        return true;
      }
    }
    return false;
  }
}
