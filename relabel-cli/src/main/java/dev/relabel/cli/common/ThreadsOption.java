package dev.relabel.cli.common;

import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code -T N}, for every verb that walks trees ({@code @Mixin ThreadsOption threads;} where the
 * option belongs in its help): declared and checked here, once, with its default from
 * {@code RELABEL_THREADS}, read here only. What differs between verbs is data: the default each
 * passes to {@link #count}, and the description, which each verb's help words as its family does,
 * read from {@code Descriptions.properties} under the key {@code relabel.VERB.threads} (verbs
 * declare {@code resourceBundle = ThreadsOption.BUNDLE}).
 */
public final class ThreadsOption implements Getopt.Options {
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
  /** What {@link #parse} returns for a value that is not a count, and for one above {@link #MAX}. */
  private static final int INVALID = -1;
  private static final int TOO_MANY = -2;

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
    return count(whenNotGiven, IoHost.of(mixee).environment(), new PicocliUsage(mixee));
  }

  /** As {@link #count(int)}, with RELABEL_THREADS from {@code environment}, a bad value reported to {@code usage}. */
  public int count(int whenNotGiven, Map<String, String> environment, UsageErrors usage) {
    String problem = problem(environment);
    if (problem != null) {
      throw usage.error(problem);
    }
    String value = given != null ? given : environment.get(ENVIRONMENT);
    return value == null || value.isEmpty() ? whenNotGiven : parse(value);
  }

  /** The usage error {@link #count} would report with {@code environment}; null when it has none. */
  public String problem(Map<String, String> environment) {
    if (given != null) {
      return problem(given, "for -T");
    }
    String inherited = environment.get(ENVIRONMENT);
    return inherited == null || inherited.isEmpty() ? null : problem(inherited, "in " + ENVIRONMENT);
  }

  /**
   * The quick path's -T ({@link Getopt}): taken once, with a value {@link #count} accepts, as
   * picocli takes it once and the usage error of a bad one is picocli's path's.
   */
  @Override
  public boolean option(char letter, Getopt getopt) {
    if (letter != 'T' || given != null) {
      return false;
    }
    String value = getopt.argument();
    if (value == null || problem(value, "for -T") != null) {
      return false;
    }
    given = value;
    return true;
  }

  /** setfiles' check of a thread count found {@code where} ("for -T", "in RELABEL_THREADS"): the usage error, or null. */
  private static String problem(String threads, String where) {
    int n = parse(threads);
    if (n == INVALID) {
      return "invalid thread count " + where + ": '" + threads + "'";
    }
    return n == TOO_MANY ? "too many threads " + where + ": " + threads + " (at most 32767)" : null;
  }

  /** setfiles' rule for a thread count: digits only (strtoull with nothing left over), at most 32767. */
  private static int parse(String threads) {
    if (threads.isEmpty()) {
      return INVALID;
    }
    for (int i = 0; i < threads.length(); i++) {
      char c = threads.charAt(i);
      if (c < '0' || c > '9') {
        return INVALID;
      }
    }
    try {
      int n = Integer.parseInt(threads);
      return n > MAX ? TOO_MANY : n;
    } catch (NumberFormatException e) {
      return TOO_MANY;
    }
  }
}
