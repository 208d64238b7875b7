package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the results say of the machine they were measured on: its CPU model and its load. */
final class Machine {
  private Machine() {}

  /** The first three fields of /proc/loadavg, "unknown" without it. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** /proc/cpuinfo's first "model name" (AMD EPYC and Intel Xeon hosts cost differently). */
  static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.ISO_8859_1)) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // Not Linux, or /proc not mounted: the model is only informative.
    }
    return "unknown model";
  }
}
