package dev.relabel.cli.common;

/**
 * The root command as its verbs see it: the streams they read and write. Verbs reach it through
 * {@code spec.root().userObject()}, so none imports the root command that registers them.
 */
public interface IoHost {
  Io io();

  /** The streams of the command line {@code spec} belongs to. */
  static Io of(picocli.CommandLine.Model.CommandSpec spec) {
    return ((IoHost) spec.root().userObject()).io();
  }
}
