package dev.relabel.cli.common;

/**
 * Where a verb's usage errors go, so that the code that runs a verb needs no picocli: picocli's
 * {@code ParameterException} ({@link PicocliUsage}), which {@code RelabelCommand} reports as
 * {@code relabel: MESSAGE (see 'relabel VERB --help')}.
 */
public interface UsageErrors {
  /** The exception to throw for the usage error {@code message}. */
  RuntimeException error(String message);
}
