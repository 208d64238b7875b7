package dev.relabel.cli.common;

import picocli.CommandLine.IVersionProvider;

/** {@code --version} on picocli's path: {@link Version#lines()}. */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return Version.lines();
  }
}
