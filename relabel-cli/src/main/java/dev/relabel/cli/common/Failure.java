package dev.relabel.cli.common;

/**
 * A failure the user can act on: the command stops, and its message is printed as one line,
 * {@code relabel: MESSAGE}, with no stack trace. Exit status 1.
 */
public final class Failure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public Failure(String message) {
    super(message);
  }

  public Failure(String message, Throwable cause) {
    super(message, cause);
  }
}
