package dev.relabel.cli.common;

import java.util.List;
import java.util.Map;

/**
 * A verb the quick path ({@code dev.relabel.cli.QuickPath}) can run without picocli: built with
 * its no-argument constructor, its options applied by {@link Getopt} (each class with options
 * applies its own letters), then run by the same code as picocli's {@code call()}.
 */
public interface QuickVerb extends Getopt.Options, ExitStatus.Declared {
  /**
   * Takes the operands getopt read; false declines: too few, or a usage error the run would
   * report ({@code environment} is the process's, for {@code RELABEL_THREADS}).
   */
  boolean operands(List<String> operands, Map<String, String> environment);

  /** Runs the verb on {@code io}, as picocli's path runs it once its options are read. */
  int run(Io io, UsageErrors usage) throws Exception;

  /**
   * {@link #run} threw, and {@code failure} was written on standard error: with {@code --json},
   * ends the report on {@code io}, as picocli's exception handler does.
   */
  void failed(Io io, FailureReport failure);
}
