package dev.relabel.cli.common;

import java.util.ArrayList;
import java.util.List;

/**
 * POSIX getopt over a verb's arguments, for the quick path ({@code dev.relabel.cli.QuickPath}
 * runs {@code restorecon}, {@code setfiles} and {@code lookup} without picocli when it can):
 * clustered letters ({@code -nv}), an option's argument attached ({@code -T2}) or as the next word
 * ({@code -T 2}), every option before the first operand, and the long flags a verb takes here
 * ({@code --json}). It reads only what picocli reads the same way, and declines everything else:
 * {@code --}, a long option the verb does not take here or one with {@code =}, a letter no option
 * of the verb takes, an option after an operand, an operand starting with '-' ({@code -}
 * included), a missing argument, an argument starting with '-' (picocli may read it as an option)
 * or an attached one starting with '=' (picocli's separator). Picocli then reads the arguments as
 * ever, so that every message is still picocli's.
 *
 * <p>Each class that declares options with picocli's annotations applies its own letters, beside
 * their declarations ({@link Options}), so that an option is declared once.
 */
public final class Getopt {
  /** The options of a verb, or of one of its mixins. */
  public interface Options {
    /**
     * Applies the option {@code letter}, reading its argument with {@link Getopt#argument()}; false
     * declines: a letter not taken here, one given twice where picocli takes it once, or an
     * argument picocli would refuse.
     */
    boolean option(char letter, Getopt getopt);

    /**
     * Applies the long flag {@code --name} (one that takes no argument); false declines: a name not
     * taken here, or one given twice (picocli takes a flag once). By default none is.
     */
    default boolean longOption(String name) {
      return false;
    }
  }

  private final String[] args;
  /** The word being read, and in it the position of the letter being applied. */
  private int word;
  private int position;
  /** The ASCII letters applied or asking for an argument, and those that asked for one. */
  private final boolean[] taken = new boolean[128];
  private final boolean[] withArgument = new boolean[128];
  private List<String> operands;

  private Getopt(String[] args) {
    this.args = args;
  }

  /** Reads {@code args[from...]} into {@code options}; see {@link #operands()}. */
  public static Getopt read(String[] args, int from, Options options) {
    Getopt getopt = new Getopt(args);
    getopt.operands = getopt.read(from, options);
    return getopt;
  }

  /** The operands, in order; null when declined (the options may then hold part of what was read). */
  public List<String> operands() {
    return operands;
  }

  /** Whether the option {@code letter} was taken (applied, or asked for its argument). */
  public boolean took(char letter) {
    return letter < taken.length && taken[letter];
  }

  /** Whether the option {@code letter} asked for an argument. */
  public boolean tookArgument(char letter) {
    return letter < withArgument.length && withArgument[letter];
  }

  private List<String> read(int from, Options options) {
    List<String> read = new ArrayList<>();
    for (word = from; word < args.length; word++) {
      String arg = args[word];
      if (!arg.startsWith("-")) {
        read.add(arg);
        continue;
      }
      if (arg.length() == 1 || !read.isEmpty()) {
        return null;
      }
      if (arg.charAt(1) == '-') {
        if (arg.length() == 2 || arg.indexOf('=') >= 0 || !options.longOption(arg.substring(2))) {
          return null;
        }
        continue;
      }
      for (position = 1; position < arg.length(); position++) {
        char letter = arg.charAt(position);
        if (letter >= taken.length || !options.option(letter, this)) {
          return null;
        }
        taken[letter] = true;
      }
    }
    return read;
  }

  /**
   * The argument of the option being applied: the rest of its word, else the next word; null when
   * there is none, or when picocli might read it otherwise (see the class comment).
   */
  public String argument() {
    String arg = args[word];
    char letter = arg.charAt(position);
    taken[letter] = true;
    withArgument[letter] = true;
    String value = null;
    if (position + 1 < arg.length()) {
      value = arg.substring(position + 1);
      if (value.startsWith("=")) {
        value = null;
      }
    } else if (word + 1 < args.length) {
      value = args[++word];
    }
    position = arg.length();
    return value == null || value.startsWith("-") ? null : value;
  }

  /**
   * As {@link #argument()}, but {@code -} alone is a value (standard input, as picocli reads it:
   * a lone dash is no option).
   */
  public String argumentOrDash() {
    String arg = args[word];
    String given = position + 1 < arg.length() ? arg.substring(position + 1)
        : word + 1 < args.length ? args[word + 1] : null;
    String value = argument();
    return value == null && "-".equals(given) ? given : value;
  }

  /** For an option given any number of times: adds {@code argument} to {@code into}; false (decline) when it is null. */
  public static boolean add(String argument, List<String> into) {
    return argument != null && into.add(argument);
  }
}
