package dev.relabel.cli.common;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Usage errors as picocli reports them: a {@link ParameterException} of the command {@code spec} describes. */
public final class PicocliUsage implements UsageErrors {
  private final CommandSpec spec;

  public PicocliUsage(CommandSpec spec) {
    this.spec = spec;
  }

  @Override
  public RuntimeException error(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
