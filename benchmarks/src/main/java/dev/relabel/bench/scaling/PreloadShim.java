package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * restorecon returns at once, doing nothing, when {@code is_selinux_enabled()} says no, as it does
 * on this machine (SELinux disabled). To measure it anyway, a one-line shared library built here,
 * at run time, answers 1, and {@code LD_PRELOAD} puts it in front of libselinux's. Nothing else
 * changes: restorecon reads the same policy files and writes the same xattrs. No binary is kept in
 * the repository; it is built into the run's scratch directory.
 */
public final class PreloadShim {
  static final String SOURCE = "/* relabel-bench: restorecon believes SELinux is enabled. */\n"
      + "int is_selinux_enabled(void) { return 1; }\n";

  private PreloadShim() {}

  /** Builds the shim in {@code scratch}; its path. Fails with cc's message when cc is missing or fails. */
  public static Path build(Path scratch) throws IOException, InterruptedException {
    Path source = scratch.resolve("selinux-enabled.c");
    Path library = scratch.resolve("selinux-enabled.so");
    Files.writeString(source, SOURCE);
    FloorProgram.cc(List.of("-shared", "-fPIC", "-O2", "-o", library.toString()), source, scratch.resolve("cc-shim.log"),
        "gcc is not installed, so restorecon (which does nothing while SELinux is disabled) cannot be measured: "
            + "apt-get install gcc, or leave restorecon out of --compare");
    return library;
  }
}
