package dev.relabel.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version}: the {@code Implementation-Version} of the manifest of the jar relabel runs
 * from (the shaded {@code relabel.jar} has one); when run from a class directory there is none.
 */
public final class VersionProvider implements IVersionProvider {
  /** What {@code --version} says when no manifest names a version. */
  static final String UNKNOWN = "unknown (not running from relabel.jar)";

  @Override
  public String[] getVersion() {
    return new String[] {"relabel " + version()};
  }

  /** The version of the running jar, or {@link #UNKNOWN}. */
  public static String version() {
    String version = RelabelCommand.class.getPackage().getImplementationVersion();
    return version == null || version.isBlank() ? UNKNOWN : version;
  }
}
