package dev.relabel.cli.common;

import dev.relabel.nativeio.Kernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * What {@code --version} says, without a picocli class (the quick path and the {@code --json}
 * report use it; {@link VersionProvider} hands it to picocli): the {@code Implementation-Version}
 * of the manifest of the jar relabel runs from (the shaded {@code relabel.jar} has one; run from a
 * class directory there is none), when that jar was built ({@code Build-Time}, UTC) and by which
 * JDK, the Java and system it runs on, and the librelabel its walks read listings with:
 *
 * <pre>
 * relabel 0.1.0-SNAPSHOT
 * built 2026-11-29T23:40:00Z with JDK 17
 * running on Java 17.0.13 (Eclipse Adoptium), Linux 6.1.0 amd64
 * librelabel /usr/lib/relabel/jna/linux-x86-64/librelabel.so
 * </pre>
 */
public final class Version {
  /** What {@code --version} says when no manifest names a version. */
  static final String UNKNOWN = "unknown (not running from relabel.jar)";

  private Version() {}

  /** What {@code --version} prints, a line each (the quick path prints them without picocli). */
  public static String[] lines() {
    List<String> lines = new ArrayList<>();
    lines.add("relabel " + version());
    String built = buildInfo();
    if (built != null) {
      lines.add(built);
    }
    lines.add("running on Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor")
        + "), " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
        + System.getProperty("os.arch"));
    lines.add(librelabel());
    // Not String[]::new: a JVM's first method reference or lambda sets up java.lang.invoke, ~12 ms
    // of a --version run (its only one) on a host where java -version takes 120.
    return lines.toArray(new String[0]);
  }

  /**
   * The librelabel file bin/relabel names (relabel.native), where it is one: the file is only
   * looked at, not loaded, which would cost a version run JNA's start. Without it a walk reads each
   * entry with calls of its own, slower.
   */
  static String librelabel() {
    // A compile-time constant: no class of relabel-core is loaded for it.
    String file = System.getProperty(Kernel.LIBRELABEL_PROPERTY, "");
    return !file.isEmpty() && Files.isRegularFile(Path.of(file))
        ? "librelabel " + file
        : "librelabel none: each entry read with calls of its own";
  }

  /**
   * The version of the running jar; outside one, the {@code relabel.version} system property (the
   * build sets it for the man page generator, which runs from the class directory); else
   * {@link #UNKNOWN}.
   */
  public static String version() {
    String version = Version.class.getPackage().getImplementationVersion();
    if (version == null || version.isBlank()) {
      version = System.getProperty("relabel.version");
    }
    return version == null || version.isBlank() ? UNKNOWN : version;
  }

  /** {@code built TIME with JDK N} from the running jar's manifest; null outside a jar. */
  private static String buildInfo() {
    try {
      Path location = Path.of(Version.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!location.toString().endsWith(".jar")) {
        return null;
      }
      try (JarFile jar = new JarFile(location.toFile())) {
        var attributes = jar.getManifest().getMainAttributes();
        String time = attributes.getValue("Build-Time");
        String jdk = attributes.getValue("Build-Jdk-Spec");
        return time == null ? null : "built " + time + (jdk == null ? "" : " with JDK " + jdk);
      }
    } catch (IOException | RuntimeException | java.net.URISyntaxException e) {
      return null; // no jar, or no manifest: the version line says enough
    }
  }
}
