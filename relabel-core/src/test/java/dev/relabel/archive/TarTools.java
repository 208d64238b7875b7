package dev.relabel.archive;

import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The reference tools the archive tests read archives with: GNU tar (its {@code -tvv} listing) and
 * Python's {@code tarfile} (every member's fields, a digest of its data and its label record).
 */
final class TarTools {
  /**
   * One line per member, in order: name (hex of its bytes), type, mode, uid, gid, uname, gname,
   * mtime, link target (hex), device numbers, size, data's SHA-256, then a tab and the label
   * record (hex, with its NUL) or "-".
   */
  private static final String DUMP = String.join("\n",
      "import sys, tarfile, hashlib",
      "t = tarfile.open(sys.argv[1], encoding='utf-8', errors='surrogateescape')",
      "for m in t:",
      "    data = t.extractfile(m).read() if m.isreg() else b''",
      "    raw = lambda s: s.encode('utf-8', 'surrogateescape').hex()",
      "    label = m.pax_headers.get('SCHILY.xattr.security.selinux')",
      "    label = '-' if label is None else label.encode('utf-8', 'surrogateescape').hex()",
      "    print(raw(m.name), m.type.decode(), oct(m.mode), m.uid, m.gid, m.uname, m.gname, m.mtime,",
      "          raw(m.linkname), m.devmajor, m.devminor, m.size, hashlib.sha256(data).hexdigest(), sep=' ', end='\\t')",
      "    print(label)");

  private TarTools() {}

  /** Fails in CI, skips elsewhere, unless GNU tar and python3 are here. */
  static void require() {
    String missing = null;
    if (!Files.isExecutable(Path.of("/usr/bin/tar")) && !Files.isExecutable(Path.of("/bin/tar"))) {
      missing = "GNU tar is missing (apt-get install tar)";
    } else if (!onPath("python3")) {
      missing = "python3 is missing (apt-get install python3)";
    } else if (Oracles.missing() != null) {
      missing = Oracles.missing();
    }
    if (missing != null) {
      if (Oracles.inCi()) {
        fail("CI=true and a reference tool is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  /** Python's tarfile's view of every member, in order (see {@link #DUMP}). */
  static List<String> dump(Path archive, Path scratch) throws IOException, InterruptedException {
    Path script = scratch.resolve("dump.py");
    Files.writeString(script, DUMP + "\n");
    return List.of(AttrTrees.check(List.of("python3", script.toString(), archive.toString()), scratch).split("\n"));
  }

  /** The dump's lines without their label column. */
  static List<String> withoutLabels(List<String> dump) {
    List<String> lines = new ArrayList<>();
    for (String line : dump) {
      lines.add(line.substring(0, line.indexOf('\t')));
    }
    return lines;
  }

  /** The dump's label column, decoded (NUL kept), or null for "-". */
  static String labelOf(String dumpLine) {
    String hex = dumpLine.substring(dumpLine.indexOf('\t') + 1);
    if (hex.equals("-")) {
      return null;
    }
    byte[] bytes = java.util.HexFormat.of().parseHex(hex);
    return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** The member's name bytes from a dump line. */
  static byte[] nameOf(String dumpLine) {
    return java.util.HexFormat.of().parseHex(dumpLine.substring(0, dumpLine.indexOf(' ')));
  }

  /** GNU tar's verbose listing ({@code tar -tvv}), one char per byte. */
  static String listing(Path archive, Path scratch) throws IOException, InterruptedException {
    return AttrTrees.check(List.of("tar", "--numeric-owner", "-tvvf", archive.toString()), scratch);
  }
}
