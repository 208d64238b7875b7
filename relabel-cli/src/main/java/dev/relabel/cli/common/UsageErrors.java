package dev.relabel.cli.common;

/**
 * Where a verb's usage errors go, so that the code that runs a verb needs no picocli: on the full
 * path, picocli's {@code ParameterException} ({@link PicocliUsage}), which {@code RelabelCommand}
 * reports as {@code relabel: MESSAGE (see 'relabel VERB --help')}; the quick path
 * ({@code dev.relabel.cli.QuickPath}) declines every argument vector that would meet one.
 */
public interface UsageErrors {
  /** The exception to throw for the usage error {@code message}. */
  RuntimeException error(String message);
}
