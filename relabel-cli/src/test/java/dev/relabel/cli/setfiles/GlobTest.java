package dev.relabel.cli.setfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Glob} against glibc's own {@code glob(3)} with setfiles' flags
 * ({@code GLOB_TILDE | GLOB_PERIOD | GLOB_NOCHECK | GLOB_BRACE}), called through JNA on the same
 * tree, in the C collation setfiles runs in.
 */
class GlobTest {
  private static final int GLOB_NOCHECK = 1 << 4;
  private static final int GLOB_PERIOD = 1 << 7;
  private static final int GLOB_BRACE = 1 << 10;
  private static final int GLOB_TILDE = 1 << 12;
  private static final int FLAGS = GLOB_TILDE | GLOB_PERIOD | GLOB_NOCHECK | GLOB_BRACE;
  private static final int LC_COLLATE = 3;

  interface LibC extends Library {
    int glob(byte[] pattern, int flags, Pointer errfunc, Pointer pglob);

    void globfree(Pointer pglob);

    Pointer setlocale(int category, String locale);

    int mkfifo(byte[] path, int mode);
  }

  private static final LibC LIBC = Native.load("c", LibC.class);

  @TempDir
  static Path dir;

  @BeforeAll
  static void tree() throws IOException {
    // setfiles never calls setlocale(): glob sorts with strcmp.
    LIBC.setlocale(LC_COLLATE, "C");
    for (String d : List.of("t/a/b", "t/locked/in", "t/.hidden", "s\\x/t", "u/{x,y}", "u/x")) {
      Files.createDirectories(dir.resolve(d));
    }
    for (String f : List.of("t/f1", "t/F2", "t/a/f2", "t/.dot", "t/[x]", "t/star*", "t/q?", "t/a b", "u/{x,y}/z",
        "t/a/b/deep", "t/~home")) {
      Files.writeString(dir.resolve(f), "");
    }
    Files.createSymbolicLink(dir.resolve("t/l"), Path.of("f1"));
    Files.createSymbolicLink(dir.resolve("t/dl"), Path.of("a"));
    Files.createSymbolicLink(dir.resolve("t/dangling"), Path.of("nowhere"));
  }

  private static List<String> glibc(String pattern) {
    Memory glob = new Memory(128);
    glob.clear();
    int status = LIBC.glob((pattern + "\0").getBytes(StandardCharsets.UTF_8), FLAGS, null, glob);
    List<String> paths = new ArrayList<>();
    if (status == 0) {
      long count = glob.getLong(0);
      Pointer vector = glob.getPointer(8);
      for (int i = 0; i < count; i++) {
        paths.add(vector.getPointer(8L * i).getString(0, "UTF-8"));
      }
    }
    LIBC.globfree(glob);
    return paths;
  }

  private static void same(String relative) {
    String pattern = relative.startsWith("/") || relative.startsWith("~") ? relative : dir + "/" + relative;
    assertEquals(glibc(pattern), new Glob(StandardCharsets.UTF_8).expand(pattern), pattern);
  }

  @Test
  void plainPathsStandForThemselves() {
    for (String p : List.of("t/f1", "t/nope", "t/a/", "t/nope/", "t//f1", "t/./f1", "t/a/../f1", "t/l/", "t/dl/",
        "t/dangling", "", "/", "t/a b")) {
      same(p);
    }
  }

  @Test
  void wildcards() {
    for (String p : List.of("t/*", "t/.*", "t/*/", "t/*//", "t/f?", "t/[a-f]*", "t/[!a]*", "t/[^a]*", "t/[]a]*",
        "t/[[:upper:]]2", "t/[[:alpha:]]1", "t/*/f2", "t/*/*", "t/a/*/deep", "t/a/.*/f2", "*/a", "t/l*/",
        "t/*[", "t/[", "t/[]", "t/[b-a]*", "t/x*", "t/*/nope", "s*/t", "t/*\\", "t/[a-]*")) {
      same(p);
    }
  }

  @Test
  void backslashes() {
    for (String p : List.of("t/f\\1", "t/n\\o", "t/star\\*", "t/q\\?", "t/\\[x]", "t/[\\f]1", "s\\\\x/t", "s\\x/t",
        "t\\/f1", "x\\")) {
      same(p);
    }
  }

  @Test
  void braces() {
    for (String p : List.of("t/{l,f1}", "t/{l,nope,f1}", "t/{nope,nada}", "t/{f1}", "t/{f1", "t/{}", "t/{,f1}",
        "t/{{f,F}1,a}", "t/{a,l}/", "t/\\{f1,l}", "t/{f1,l\\}", "{t,u}/*", "u/{x,y}", "u/\\{x,y}/z", "t/{a,nope}/")) {
      same(p);
    }
  }

  @Test
  void tilde() {
    for (String p : List.of("~", "~root", "~nosuchuser/x", "~/nosuchfile-relabel-test")) {
      same(p);
    }
    same("t/~home");
  }

  @Test
  void aFifoWhereADirectoryIsExpectedIsNoDirectory() throws IOException {
    // Opening a FIFO to read it blocks until a writer comes: this hung before Glob opened with O_DIRECTORY.
    Files.createDirectories(dir.resolve("p"));
    assertEquals(0, LIBC.mkfifo((dir.resolve("p/fifo") + "\0").getBytes(StandardCharsets.UTF_8), 0600));
    for (String p : List.of("p/fifo/*", "p/fifo/x", "p/*/*", "p/f*/", "p/*")) {
      same(p);
    }
  }
}
