package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.match.LabelMatcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relabel of what a policy update changed ({@code fixfiles -C}) on real files: only entries the
 * two policies label differently are read and written, and no directory beneath which nothing can
 * differ is even opened.
 */
class PolicyDiffWalkTest {
  private static final String WRONG = "system_u:object_r:tmp_t:s0";

  @TempDir Path dir;
  private Path tree;

  @BeforeEach
  void layout() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    for (String file : List.of("etc/ssh/sshd_config", "etc/hosts", "var/log/syslog", "var/log/apt/history.log",
        "var/lib/dpkg/status", "usr/bin/ls")) {
      Files.createDirectories(tree.resolve(file).getParent());
      Files.writeString(tree.resolve(file), "");
    }
  }

  private LabelMatcher policy(String name, String varLogContext) throws IOException {
    return TestPolicy.matcher(dir.resolve(name),
        "/.* system_u:object_r:default_t:s0",
        "/etc(/.*)? system_u:object_r:etc_t:s0",
        "/var(/.*)? system_u:object_r:var_t:s0",
        "/var/log(/.*)? " + varLogContext,
        "/usr/bin(/.*)? system_u:object_r:bin_t:s0");
  }

  @Test
  void onlyWhatTheUpdateChangedIsReadAndWritten() throws Exception {
    LabelMatcher previous = policy("previous", "system_u:object_r:var_log_t:s0");
    LabelMatcher current = policy("current", "system_u:object_r:var_log_new_t:s0");
    RelabelOptions options = RelabelOptions.defaults().withAlternateRoot(tree);
    // Labelled by the previous policy, but for one wrong label the update does not concern.
    assertEquals(List.of(), Relabeler.onDisk(previous, options, RelabelListener.NONE).run(List.of(tree)).failures());
    DiskLabels.set(tree.resolve("etc/hosts"), WRONG);

    Queue<String> opened = new ConcurrentLinkedQueue<>();
    Queue<String> read = new ConcurrentLinkedQueue<>();
    Queue<String> written = new ConcurrentLinkedQueue<>();
    HookedFileTree watched = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      String relative = relative(path);
      switch (operation) {
        case "openChild" -> opened.add(relative);
        case "label" -> read.add(relative);
        case "setLabel" -> written.add(relative);
        default -> { }
      }
    });
    RecordingListener listener = new RecordingListener();
    RelabelReport report = new Relabeler(current, Set.of(), options.withThreads(2), watched, listener)
        .changedSince(previous).run(List.of(tree));

    assertEquals(List.of(), report.failures());
    assertEquals(Set.of("var/log", "var/log/syslog", "var/log/apt", "var/log/apt/history.log"), new TreeSet<>(written));
    assertEquals(new TreeSet<>(written), new TreeSet<>(read));
    // The root (opened from its parent), var and beneath var/log; not etc, usr or var/lib.
    assertEquals(Set.of("", "var", "var/log", "var/log/apt"), new TreeSet<>(opened));
    assertEquals(WRONG, DiskLabels.get(tree.resolve("etc/hosts")));
    assertEquals("system_u:object_r:var_log_new_t:s0", DiskLabels.get(tree.resolve("var/log/apt/history.log")));
    assertEquals("system_u:object_r:var_t:s0", DiskLabels.get(tree.resolve("var/lib/dpkg/status")));
  }

  @Test
  void identicalPoliciesTouchNothing() throws Exception {
    LabelMatcher previous = policy("previous", "system_u:object_r:var_log_t:s0");
    LabelMatcher current = policy("current", "system_u:object_r:var_log_t:s0");
    DiskLabels.set(tree.resolve("var/log/syslog"), WRONG);
    Queue<String> opened = new ConcurrentLinkedQueue<>();
    HookedFileTree watched = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.equals("openChild")) {
        opened.add(relative(path));
      }
    });
    RelabelReport report = new Relabeler(current, Set.of(), RelabelOptions.defaults().withAlternateRoot(tree), watched,
        RelabelListener.NONE).changedSince(previous).run(List.of(tree));
    assertEquals(0, report.relabeled());
    assertEquals(List.of(), List.copyOf(opened));
    assertEquals(WRONG, DiskLabels.get(tree.resolve("var/log/syslog")));
  }

  private String relative(byte[] path) {
    String text = new String(path, StandardCharsets.ISO_8859_1);
    String root = tree.toString();
    if (text.equals(root)) {
      return "";
    }
    return text.startsWith(root + "/") ? text.substring(root.length() + 1) : text;
  }
}
