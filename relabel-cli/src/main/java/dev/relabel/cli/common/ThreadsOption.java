package dev.relabel.cli.common;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code -T N}, for every verb that walks trees ({@code @Mixin ThreadsOption threads;} where the
 * option belongs in its help): declared and checked here, once, with its default from
 * {@code RELABEL_THREADS}, read here only. What differs between verbs is data: the default each
 * passes to {@link #count}, and the description, which each verb's help words as its family does,
 * read from {@code Descriptions.properties} under the key {@code relabel.VERB.threads} (verbs
 * declare {@code resourceBundle = ThreadsOption.BUNDLE}).
 */
public final class ThreadsOption {
  /**
   * The resource bundle that holds each verb's description of -T, and the other descriptions worded
   * per verb (those of the flags setfiles and restorecon share).
   */
  public static final String BUNDLE = "dev.relabel.cli.common.Descriptions";

  /**
   * The environment variable that sets -T's default for every verb, so that package scripts and
   * tmpfiles hooks that call {@code relabel restorecon} get threads without passing -T.
   */
  public static final String ENVIRONMENT = "RELABEL_THREADS";

  /** The largest -T setfiles accepts. */
  private static final int MAX = 32767;

  @Spec(Spec.Target.MIXEE)
  private CommandSpec mixee;

  @Option(names = "-T", paramLabel = "N", descriptionKey = "threads")
  private String given;

  /** -T as given; null without it. */
  public String given() {
    return given;
  }

  /** Sets -T as if given (autorelabel takes it from /.autorelabel when the command line has none). */
  public void give(String value) {
    given = value;
  }

  /**
   * The thread count -T asks for; without it, {@code $RELABEL_THREADS} (read from the command's
   * {@link Io#environment()}), and {@code whenNotGiven} when that is unset or empty. Either is
   * checked as setfiles checks -T: digits only (strtoull with nothing left over), at most 32767;
   * 0 for one per core. A bad value is a usage error that names where it came from. -T on the
   * command line wins: a bad RELABEL_THREADS is not read then.
   */
  public int count(int whenNotGiven) {
    if (given != null) {
      return parse(mixee, given, "for -T");
    }
    String inherited = IoHost.of(mixee).environment().get(ENVIRONMENT);
    return inherited == null || inherited.isEmpty() ? whenNotGiven : parse(mixee, inherited, "in " + ENVIRONMENT);
  }

  /** setfiles' check of a -T value, as a usage error of {@code spec}'s command. */
  public static int parse(CommandSpec spec, String threads) {
    return parse(spec, threads, "for -T");
  }

  /** setfiles' check of a thread count found {@code where} ("for -T", "in RELABEL_THREADS"). */
  private static int parse(CommandSpec spec, String threads, String where) {
    if (threads.isEmpty() || !threads.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new ParameterException(spec.commandLine(), "invalid thread count " + where + ": '" + threads + "'");
    }
    try {
      int n = Integer.parseInt(threads);
      if (n > MAX) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new ParameterException(spec.commandLine(), "too many threads " + where + ": " + threads + " (at most 32767)");
    }
  }
}
