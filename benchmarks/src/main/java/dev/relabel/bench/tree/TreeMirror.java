package dev.relabel.bench.tree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies real directories' structure: directories, regular files as empty files, symlinks as
 * symlinks (never followed), at their own absolute paths under the destination. GNU cp does it
 * ({@code cp -a --parents --attributes-only --no-preserve=xattr}): it handles any byte in a name,
 * keeps hard links as hard links and copies no data.
 */
public final class TreeMirror {
  private TreeMirror() {}

  public static void copy(List<Path> sources, Path destination, Path scratch) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("cp", "-a", "--parents", "--attributes-only", "--no-preserve=xattr"));
    for (Path source : sources) {
      command.add(source.toAbsolutePath().normalize().toString());
    }
    command.add(destination.toString() + "/");
    Path errors = Files.createTempFile(scratch, "cp", ".txt");
    Process cp = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(errors.toFile()).start();
    int status = cp.waitFor();
    String err = Files.readString(errors, StandardCharsets.ISO_8859_1);
    Files.delete(errors);
    // cp goes on past entries it cannot copy (a socket, an unreadable directory) and says which.
    if (status != 0 && !Files.isDirectory(destination.resolve(sources.get(0).toAbsolutePath().toString().substring(1)))) {
      throw new IOException("cp failed: " + err);
    }
    if (!err.isEmpty()) {
      System.err.print("relabel-bench: the mirror is incomplete: " + err.substring(0, Math.min(err.length(), 2000)));
    }
  }
}
