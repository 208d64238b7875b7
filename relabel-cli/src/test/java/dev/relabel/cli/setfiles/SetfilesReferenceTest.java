package dev.relabel.cli.setfiles;

import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code relabel setfiles} and Debian's {@code setfiles} on the same small cases, each on its own
 * pair of identical trees: exit status, the set of lines on standard output and on standard error
 * (each tree's path read as ROOT, setfiles' name and ours as PROG), and the labels left behind.
 * Where the messages differ on purpose (usage errors, policy errors), only the status and the
 * labels are compared.
 */
class SetfilesReferenceTest {
  private static final String ETC = "system_u:object_r:etc_t:s0";
  private static final String BIN = "system_u:object_r:bin_t:s0";

  @TempDir
  static Path base;
  private static Path spec;
  private static Path badSpec;
  private static Path duplicateSpec;

  @BeforeAll
  static void policies() throws Exception {
    AttrTrees.requireTools(true);
    spec = Files.writeString(base.resolve("file_contexts"), String.join("\n",
        "/t(/.*)?\t" + ETC,
        "/t/a(/.*)?\t" + BIN,
        "/t/a/f2\t--\t<<none>>",
        "/h(/.*)?\t" + ETC,
        "/h/two\t" + BIN,
        "/c(/.*)?\t" + BIN,
        ""));
    badSpec = Files.writeString(base.resolve("bad_file_contexts"), String.join("\n",
        "/t(/.*)?\t" + ETC,
        "/t/a\t-q\t" + BIN,
        "/c  too many fields here",
        ""));
    duplicateSpec = Files.writeString(base.resolve("duplicate_file_contexts"), String.join("\n",
        "/t(/.*)?\t" + ETC,
        "/t(/.*)?\t" + BIN,
        ""));
  }

  /**
   * One case: {@code args} with ROOT for the tree and SPEC, BAD, DUP for the policies;
   * {@code messages}: compare the output lines too, not only status and labels.
   */
  record Case(String name, String args, boolean messages, boolean malformed, String stdin) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("dry run", "-n -v -r ROOT SPEC ROOT/t", true, false, null),
        new Case("relabel", "-v -r ROOT SPEC ROOT/t ROOT/c", true, false, null),
        new Case("quiet relabel", "-r ROOT SPEC ROOT/t", true, false, null),
        new Case("two threads", "-v -T 2 -r ROOT SPEC ROOT", true, false, null),
        new Case("all cores", "-n -v -T 0 -r ROOT SPEC ROOT/t", true, false, null),
        new Case("force", "-F -v -r ROOT SPEC ROOT/t ROOT/c", true, false, null),
        new Case("missing path", "-n -v -r ROOT SPEC ROOT/t/nope", true, false, null),
        new Case("missing path, -i", "-i -n -v -r ROOT SPEC ROOT/t/nope", true, false, null),
        new Case("missing parent, -i", "-i -v -r ROOT SPEC ROOT/nodir/x ROOT/t/a", true, false, null),
        new Case("missing and existing", "-v -r ROOT SPEC ROOT/t/nope ROOT/t/a", true, false, null),
        new Case("no context", "-v -r ROOT SPEC ROOT/t", true, true, null),
        new Case("no context, -C", "-C -v -r ROOT SPEC ROOT/t", true, true, null),
        new Case("no context, -F", "-F -v -r ROOT SPEC ROOT/t", true, true, null),
        new Case("no context, a root", "-F -v -r ROOT SPEC ROOT/t/a/empty ROOT/t/a/g", true, true, null),
        new Case("missing path, -C", "-C -v -r ROOT SPEC ROOT/t/nope ROOT/t", true, true, null),
        new Case("<<none>> root", "-n -r ROOT SPEC ROOT/t/a/f2", true, false, null),
        new Case("unmatched root", "-v -r ROOT SPEC ROOT ROOT/list", true, false, null),
        new Case("without -r", "-n -v SPEC ROOT/t", true, false, null),
        new Case("hard link conflict", "-v -T 1 -r ROOT SPEC ROOT/h", true, false, null),
        new Case("customizable", "-n -v -r ROOT SPEC ROOT/c", true, false, null),
        new Case("exclude", "-v -e ROOT/t/a -r ROOT SPEC ROOT/t", true, false, null),
        new Case("exclude, trailing slash", "-n -v -e ROOT/t/a/ -r ROOT SPEC ROOT/t", true, false, null),
        new Case("exclude a file", "-n -v -e ROOT/t/f1 -r ROOT SPEC ROOT/t", true, false, null),
        new Case("exclude above a root", "-n -v -e ROOT/t -r ROOT SPEC ROOT/t/a ROOT/t/f1", true, false, null),
        new Case("exclude missing", "-n -v -e ROOT/nope -r ROOT SPEC ROOT/t/f1", true, false, null),
        new Case("exclude relative", "-v -e src -r ROOT SPEC ROOT/t", true, false, null),
        new Case("glob", "-v -r ROOT SPEC ROOT/t/*", true, false, null),
        new Case("glob braces", "-n -v -r ROOT SPEC ROOT/t/{f1,l,nope} ROOT/{h,c}", true, false, null),
        new Case("glob misses", "-n -v -r ROOT SPEC ROOT/t/x*", true, false, null),
        new Case("dot dot skipped", "-n -v -r ROOT SPEC ROOT/t/a/.. ROOT/t/.", true, false, null),
        new Case("trailing slash", "-n -v -r ROOT SPEC ROOT/t/a/ ROOT/t/f1/", true, false, null),
        new Case("not in alt root", "-n -v -r ROOT/t SPEC ROOT/c/x", true, false, null),
        new Case("not in alt root, -C", "-C -n -v -r ROOT/t SPEC ROOT/c/x", true, false, null),
        new Case("alt root missing", "-n -r ROOT/nope SPEC ROOT/t", true, false, null),
        new Case("alt root /", "-n -r / SPEC ROOT/t", true, false, null),
        new Case("alt root twice", "-n -r ROOT -r ROOT SPEC ROOT/t", true, false, null),
        new Case("alt root with slash", "-v -r ROOT/ SPEC ROOT/t", true, false, null),
        new Case("spec missing", "-n ROOT/nope ROOT/t", true, false, null),
        new Case("spec a directory", "-n ROOT ROOT/t", true, false, null),
        new Case("-o", "-o out -v -r ROOT SPEC ROOT/c", true, false, null),
        new Case("-q", "-q -v -r ROOT SPEC ROOT/c", true, false, null),
        new Case("-W", "-W -n -r ROOT SPEC ROOT/t", true, false, null),
        new Case("-d", "-d -v -r ROOT SPEC ROOT/t ROOT/c", true, false, null),
        new Case("-d, hard links", "-d -n -T 1 -r ROOT SPEC ROOT/h", true, false, null),
        new Case("-W over two roots", "-W -v -r ROOT SPEC ROOT/t ROOT/h", true, false, null),
        new Case("-W, every spec used", "-W -n -r ROOT SPEC ROOT", true, false, null),
        new Case("-0 without a list", "-0 -v -r ROOT SPEC ROOT/c", true, false, null),
        new Case("-f, a NUL in a line", "-v -r ROOT SPEC -f ROOT/listnul", true, false, null),
        new Case("clustered flags", "-nvq -rROOT SPEC ROOT/t", true, false, null),
        new Case("-f", "-v -r ROOT SPEC -f ROOT/list", true, false, null),
        new Case("-f, -0", "-v -0 -r ROOT SPEC -f ROOT/list0", true, false, null),
        new Case("-s", "-v -r ROOT -s SPEC", true, false, "ROOT/c\nROOT/h\n"),
        new Case("-f missing", "-v -r ROOT SPEC -f ROOT/nolist", false, false, null),
        new Case("bad policy", "-v -r ROOT BAD ROOT/t", false, false, null),
        new Case("duplicate specs", "-v -r ROOT DUP ROOT/t", false, false, null),
        new Case("no arguments", "", false, false, null),
        new Case("no path", "-v SPEC", false, false, null),
        new Case("unknown option", "-v -Z SPEC ROOT/t", false, false, null),
        new Case("bad thread count", "-v -T x SPEC ROOT/t", false, false, null),
        new Case("-f and a path", "-v SPEC -f ROOT/list ROOT/t", false, false, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sameAsSetfiles(Case c) throws Exception {
    String id = c.name().replaceAll("[^A-Za-z0-9]+", "-");
    Path reference = tree(base.resolve("setfiles-" + id), c.malformed());
    Path ours = tree(base.resolve("relabel-" + id), c.malformed());

    List<String> setfilesCommand = Trees.list(AttrTrees.SETFILES.toString());
    setfilesCommand.addAll(args(c.args(), reference));
    Path stdin = null;
    if (c.stdin() != null) {
      stdin = Files.writeString(base.resolve("stdin-" + id), c.stdin().replace("ROOT", reference.toString()));
    }
    Run setfiles = AttrTrees.run(setfilesCommand, base, stdin);

    List<String> ourCommand = Trees.list("setfiles");
    ourCommand.addAll(args(c.args(), ours));
    byte[] ourStdin = c.stdin() == null ? new byte[0]
        : c.stdin().replace("ROOT", ours.toString()).getBytes(StandardCharsets.UTF_8);
    Run relabel = Trees.relabel(ourStdin, ourCommand);

    if (c.messages()) {
      SetfilesCliDifferentialTest.assertSameRun(setfiles, reference, relabel, ours);
    } else {
      assertEquals(setfiles.status(), relabel.status(), () -> "--- setfiles\n" + setfiles + "\n--- ours\n" + relabel);
    }
    assertEquals(AttrTrees.labels(reference, base), AttrTrees.labels(ours, base), "labels");
  }

  private static List<String> args(String template, Path root) {
    List<String> args = new ArrayList<>();
    for (String arg : template.split(" ")) {
      if (!arg.isEmpty()) {
        args.add(arg.replace("ROOT", root.toString())
            .replace("SPEC", spec.toString())
            .replace("BAD", badSpec.toString())
            .replace("DUP", duplicateSpec.toString()));
      }
    }
    return args;
  }

  /**
   * ROOT/t: f1 (tmp_t), l -> f1, a/ (b/, f2, and with {@code malformed} g labelled "garbage");
   * ROOT/h: one, two and t\351, hard links whose specs differ; ROOT/c: x and caf\351-\377
   * (customizable public_content_t), y; ROOT/list and ROOT/list0 naming ROOT/c and ROOT/h.
   */
  private static Path tree(Path root, boolean malformed) throws Exception {
    Files.createDirectories(root.resolve("t/a/b"));
    Files.createDirectories(root.resolve("h"));
    Files.createDirectories(root.resolve("c"));
    Files.writeString(root.resolve("t/f1"), "");
    Files.writeString(root.resolve("t/a/f2"), "");
    Files.createSymbolicLink(root.resolve("t/l"), Path.of("f1"));
    Files.writeString(root.resolve("h/one"), "");
    Files.createLink(root.resolve("h/two"), root.resolve("h/one"));
    Files.writeString(root.resolve("c/x"), "");
    Files.writeString(root.resolve("c/y"), "");
    Files.writeString(root.resolve("list"), root + "/c\n" + root + "/h\n");
    // NUL-terminated: setfiles 3.4 misreads a last record without its NUL.
    Files.writeString(root.resolve("listnul"), root + "/c\0ignored\n" + root + "/h\n");
    Files.writeString(root.resolve("list0"), root + "/c\0" + root + "/h\0");
    AttrTrees.setLabel(root.resolve("t/f1"), "system_u:object_r:tmp_t:s0", base);
    AttrTrees.setLabel(root.resolve("t/a"), "staff_u:object_r:tmp_t:s0-s0:c1", base);
    AttrTrees.setLabel(root.resolve("c/x"), "system_u:object_r:public_content_t:s0", base);
    AttrTrees.setLabel(root.resolve("c/y"), "system_u:object_r:tmp_t:s0", base);
    // Names that are not UTF-8 (bytes E9 and FF): a customizable file, and a third name of the
    // hard-linked inode; setfiles prints them byte for byte in its -v line and its conflict warning.
    AttrTrees.touchRaw(root.resolve("c"), "caf\u00e9-\u00ff", base);
    AttrTrees.check(List.of("sh", "-c", "setfattr -h -n security.selinux -v system_u:object_r:public_content_t:s0"
        + " \"$1\"/\"$(printf 'caf\\351-\\377')\" && ln \"$2\" \"$1\"/../h/\"$(printf 't\\351')\"", "sh",
        root.resolve("c").toString(), root.resolve("h/one").toString()), base);
    if (malformed) {
      Files.writeString(root.resolve("t/a/g"), "");
      AttrTrees.setLabel(root.resolve("t/a/g"), "garbage", base);
      // An empty value: libselinux reads it as ENOTSUP, and setfiles reports it, -F or not.
      Files.writeString(root.resolve("t/a/empty"), "");
      AttrTrees.check(List.of("setfattr", "-h", "-n", "security.selinux", "-v", "\"\"",
          root.resolve("t/a/empty").toString()), base);
    }
    return root;
  }
}
