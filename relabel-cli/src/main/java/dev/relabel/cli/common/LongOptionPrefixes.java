package dev.relabel.cli.common;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * getopt_long's abbreviations: a long option may be cut to any prefix that names one option
 * ({@code chcon --verb}, {@code --ref F}, {@code --no-d}); a prefix of several is an error that
 * names them. picocli's own abbreviations split names at hyphens and fail on a lone {@code -}
 * argument (an IndexOutOfBoundsException for {@code relabel tar - -}), so the arguments are
 * rewritten here, before picocli reads them, with each prefix replaced by the option it names.
 * Option values are left alone (the argument after an option that takes one, whatever it looks
 * like), and so is everything after {@code --}.
 */
public final class LongOptionPrefixes {
  private LongOptionPrefixes() {}

  /**
   * {@code args} with every unique prefix of a long option of the verb they name (or of {@code
   * relabel} itself) spelled out.
   *
   * @throws ParameterException for a prefix of several options, as getopt_long refuses it
   */
  public static String[] expand(CommandLine top, String[] args) {
    CommandLine command = top;
    int first = 0;
    if (args.length > 0 && top.getSubcommands().containsKey(args[0])) {
      command = top.getSubcommands().get(args[0]);
      first = 1;
    }
    CommandSpec spec = command.getCommandSpec();
    String[] expanded = args.clone();
    for (int i = first; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--")) {
        break;
      }
      if (arg.startsWith("--")) {
        int equals = arg.indexOf('=');
        String name = equals < 0 ? arg : arg.substring(0, equals);
        OptionSpec option = spec.findOption(name);
        if (option == null && !spec.negatedOptionsMap().containsKey(name)) {
          String full = unique(command, spec, name);
          if (full != null) {
            expanded[i] = equals < 0 ? full : full + arg.substring(equals);
            option = spec.findOption(full);
          }
        }
        if (option != null && equals < 0 && takesValue(option)) {
          i++; // its value
        }
      } else if (arg.startsWith("-") && arg.length() > 1) {
        // A cluster of short options ("-vF", "-eDIR"): the one that takes a value ends it, with
        // the rest of the cluster or the next argument.
        for (int j = 1; j < arg.length(); j++) {
          OptionSpec option = spec.findOption(arg.charAt(j));
          if (option == null) {
            break;
          }
          if (takesValue(option)) {
            if (j == arg.length() - 1) {
              i++;
            }
            break;
          }
        }
      }
    }
    return expanded;
  }

  /** The one long option name {@code prefix} begins; null when none does. */
  private static String unique(CommandLine command, CommandSpec spec, String prefix) {
    Map<String, Object> options = new TreeMap<>(); // each name, with the option it names
    for (OptionSpec option : spec.options()) {
      for (String name : option.names()) {
        options.put(name, option);
      }
    }
    options.putAll(spec.negatedOptionsMap()); // --no-progress: the same option, saying no
    Set<Object> named = new HashSet<>(); // the options they name
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, Object> entry : options.entrySet()) {
      if (entry.getKey().startsWith("--") && entry.getKey().startsWith(prefix)) {
        names.add(entry.getKey());
        named.add(entry.getValue());
      }
    }
    if (named.size() > 1) { // two names of one option are no ambiguity, as in getopt_long
      throw new ParameterException(command, "option '" + prefix + "' is ambiguous; possibilities: '"
          + String.join("' '", names) + "'");
    }
    return names.isEmpty() ? null : names.get(0);
  }

  private static boolean takesValue(OptionSpec option) {
    return option.arity().max() > 0;
  }
}
