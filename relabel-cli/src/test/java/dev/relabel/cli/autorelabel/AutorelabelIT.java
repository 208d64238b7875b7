package dev.relabel.cli.autorelabel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.cli.LauncherScript;
import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.NotifySocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relabel autorelabel} on a fake root: a directory holding copies of this machine's /etc
 * (its SELinux policy included), /usr/sbin and /var/log, with scrambled labels and
 * {@code .autorelabel} holding {@code -F}, plus a bulk directory so that a run lasts long enough
 * to be killed. After {@code relabel autorelabel --root R --no-reboot} every label is what
 * {@code setfiles -F -r R} (Debian's, with R's own policy) gives a copy, and the flag is gone. A
 * run killed with SIGKILL mid-walk leaves the flag and only old or new labels; the next run
 * finishes the job.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class AutorelabelIT {
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0", "staff_u:staff_r:etc_t:s0", "system_u:object_r:bin_t:s0", null,
  };

  @TempDir static Path base;
  private static Path launcher;
  private static Path template;
  private static String scrambleDump;

  @BeforeAll
  static void fakeRoot() throws Exception {
    launcher = LauncherScript.launcher("AutorelabelIT");
    AttrTrees.requireTools(true);
    template = base.resolve("template");
    for (String source : List.of("/etc", "/usr/sbin", "/var/log")) {
      Path target = template.resolve(source.substring(1)).getParent();
      Files.createDirectories(target);
      AttrTrees.check(List.of("cp", "-a", "--no-preserve=xattr", source, target.toString()), base);
    }
    assertTrue(Files.exists(template.resolve("etc/selinux/config")), "the fake root needs this machine's policy");
    // 60,000 empty files: enough walking for a SIGKILL to land in the middle.
    AttrTrees.check(List.of("sh", "-c", "mkdir -p \"$1\" && cd \"$1\" && for d in $(seq 60); do mkdir d$d"
        + " && (cd d$d && seq -f f%g 1000 | xargs touch) || exit 1; done", "sh",
        template.resolve("var/lib/bulk").toString()), base);
    Random random = new Random(20261130);
    Map<String, String> scramble = new LinkedHashMap<>();
    for (String entry : AttrTrees.entries(template, base)) {
      scramble.put(entry, SCRAMBLED[random.nextInt(SCRAMBLED.length)]);
    }
    scrambleDump = AttrTrees.restoreDump(scramble);
  }

  private static Path scrambledRoot(String name, String flag) throws Exception {
    Path root = AttrTrees.labelledCopy(template, base.resolve(name), scrambleDump, base);
    if (flag != null) {
      Files.writeString(root.resolve(".autorelabel"), flag, StandardCharsets.US_ASCII);
    }
    return root;
  }

  /** What Debian's setfiles -F -r makes of a scrambled copy, with the copy's own policy. */
  private static Map<String, String> setfilesLabels() throws Exception {
    Path reference = scrambledRoot("reference-" + System.nanoTime(), null);
    AttrTrees.check(List.of(AttrTrees.SETFILES.toString(), "-F", "-r", reference.toString(),
        reference.resolve("etc/selinux/default/contexts/files/file_contexts").toString(), reference.toString()), base);
    return AttrTrees.labels(reference, base);
  }

  private static ProcessBuilder autorelabel(Path root, Path out, Path err) {
    ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "autorelabel", "--root", root.toString(),
        "--no-reboot", "--progress-interval", "0.01")
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("RELABEL_JAVA_OPTS");
    builder.environment().remove("NOTIFY_SOCKET");
    return builder;
  }

  private static AttrTrees.Run runToTheEnd(Path root) throws Exception {
    return runToTheEnd(root, null);
  }

  private static AttrTrees.Run runToTheEnd(Path root, String notifySocket) throws Exception {
    Path out = Files.createTempFile(base, "out", "");
    Path err = Files.createTempFile(base, "err", "");
    ProcessBuilder builder = autorelabel(root, out, err);
    if (notifySocket != null) {
      builder.environment().put("NOTIFY_SOCKET", notifySocket);
    }
    Process process = builder.start();
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "autorelabel did not finish");
    return new AttrTrees.Run(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static List<String> differences(Map<String, String> expected, Map<String, String> actual) {
    List<String> differences = new ArrayList<>();
    for (String entry : expected.keySet()) {
      if (!expected.get(entry).equals(actual.get(entry))) {
        differences.add(entry + ": setfiles " + expected.get(entry) + ", relabel " + actual.get(entry));
      }
    }
    return differences.subList(0, Math.min(20, differences.size()));
  }

  @Test
  void aFlaggedRootIsRelabelledAsSetfilesWouldAndTheFlagGoes() throws Exception {
    Path root = scrambledRoot("flagged", "-F ");
    AttrTrees.Run run;
    List<String> notifications;
    try (NotifySocket systemd = new NotifySocket(base.resolve("notify"))) {
      // Read as systemd does, while the relabel runs: its queue is short.
      List<String> received = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
      Thread reader = new Thread(() -> {
        while (!done.get()) {
          received.addAll(systemd.drain());
        }
        received.addAll(systemd.drain());
      });
      reader.start();
      run = runToTheEnd(root, systemd.path);
      done.set(true);
      reader.join();
      notifications = List.copyOf(received);
    }
    assertEquals(0, run.status(), run::toString);
    // Under systemd: progress as STATUS= with EXTEND_TIMEOUT_USEC=, then READY=1 (no STOPPING=1:
    // --no-reboot).
    assertTrue(notifications.stream().anyMatch(n -> n.startsWith("STATUS=Relabeling " + root + ": ")
        && n.contains("\nEXTEND_TIMEOUT_USEC=")), notifications::toString);
    assertEquals("READY=1", notifications.get(notifications.size() - 1), notifications::toString);
    assertFalse(notifications.contains("STOPPING=1"), notifications::toString);
    assertFalse(Files.exists(root.resolve(".autorelabel")), "the flag must go after a clean relabel");
    assertTrue(run.out().contains("Relabeling " + root + ": "), "per-filesystem progress lines: " + run);
    assertFalse(run.out().contains("\r") || run.out().contains("\u001b"), "no terminal control characters");
    Map<String, String> actual = AttrTrees.labels(root, base);
    Map<String, String> expected = setfilesLabels();
    java.util.Set<String> onlyExpected = new java.util.TreeSet<>(expected.keySet());
    onlyExpected.removeAll(actual.keySet());
    java.util.Set<String> onlyActual = new java.util.TreeSet<>(actual.keySet());
    onlyActual.removeAll(expected.keySet());
    assertEquals(List.of(), List.copyOf(onlyExpected), "entries only in setfiles' copy");
    assertEquals(List.of(), List.copyOf(onlyActual), "entries only in relabel's");
    assertEquals(List.of(), differences(expected, actual));

    // Without a flag there is nothing to do.
    AttrTrees.Run again = runToTheEnd(root);
    assertEquals(0, again.status(), again::toString);
    assertEquals(actual, AttrTrees.labels(root, base));
  }

  @Test
  void aKilledRelabelKeepsItsFlagAndTheNextRunFinishesIt() throws Exception {
    Path root = scrambledRoot("killed", "-F -T 1 ");
    Map<String, String> before = AttrTrees.labels(root, base);
    Path out = Files.createTempFile(base, "out", "");
    Path err = Files.createTempFile(base, "err", "");
    Process process = autorelabel(root, out, err).start();
    // Progress lines are flushed as written: the first one means the walk is under way.
    while (!Files.readString(out).contains("Relabeling " + root + ": ")) {
      if (!process.isAlive()) {
        fail("autorelabel ended before its first progress line: " + process.exitValue() + "\n" + Files.readString(out)
            + Files.readString(err));
      }
      Thread.sleep(2);
    }
    process.destroyForcibly();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(137, process.exitValue(), "killed by SIGKILL");
    assertTrue(Files.exists(root.resolve(".autorelabel")), "a killed relabel keeps its flag");

    Map<String, String> expected = setfilesLabels();
    Map<String, String> killed = AttrTrees.labels(root, base);
    int changed = 0;
    List<String> torn = new ArrayList<>();
    for (String entry : expected.keySet()) {
      String label = killed.get(entry);
      if (label.equals(expected.get(entry))) {
        changed += label.equals(before.get(entry)) ? 0 : 1;
      } else if (!label.equals(before.get(entry))) {
        torn.add(entry + ": " + label);
      }
    }
    assertEquals(List.of(), torn, "every entry has its old label or its new one");
    assertTrue(changed > 0, "the walk had begun");

    AttrTrees.Run finish = runToTheEnd(root);
    assertEquals(0, finish.status(), finish::toString);
    assertFalse(Files.exists(root.resolve(".autorelabel")));
    assertEquals(List.of(), differences(expected, AttrTrees.labels(root, base)));
  }

  /**
   * -M in the flag (fixfiles -M onboot): the relabel goes through a bind mount of the filesystem,
   * so entries a mount covers (here /var/log, under a tmpfs) get setfiles' labels too, which
   * without -M keep their scrambled ones; the progress lines name the filesystem, not the bind
   * mount; no mount and no directory is left in /tmp. With -N in the flag too (fixfiles -B -M
   * onboot) -M is left aside, said, as fixfiles' restore leaves it, and the relabel goes on.
   */
  @Test
  void minusMInTheFlagLabelsWhatMountsCover() throws Exception {
    Path root = scrambledRoot("bind-mounts", "-F -M ");
    Files.createDirectories(root.resolve("tmp"));
    Path covered = root.resolve("var/log");
    Map<String, String> before = AttrTrees.labels(covered, base);
    AttrTrees.mount(List.of("mount", "-t", "tmpfs", "tmpfs", covered.toString()), base);
    AttrTrees.Run run;
    String mountsAfter;
    try {
      run = runToTheEnd(root);
      mountsAfter = Files.readString(Path.of("/proc/self/mountinfo"));
    } finally {
      AttrTrees.unmountAll(List.of(covered), base);
    }
    assertEquals(0, run.status(), run::toString);
    assertFalse(Files.exists(root.resolve(".autorelabel")), run::toString);
    assertTrue(run.out().contains("Relabeling " + root + ": "), "the filesystem named: " + run);
    assertFalse(run.out().contains(root + "/tmp/tmp."), "the bind mount's directory is not named: " + run);
    assertFalse(mountsAfter.contains(root + "/tmp/"), "the bind mount is taken off: " + mountsAfter);
    try (java.util.stream.Stream<Path> left = Files.list(root.resolve("tmp"))) {
      assertEquals(List.of(), left.toList(), "the directory made for the bind mount is removed");
    }
    Map<String, String> expected = new java.util.TreeMap<>(setfilesLabels());
    expected.keySet().removeIf(entry -> !entry.startsWith("var/log"));
    Map<String, String> actual = new java.util.TreeMap<>(AttrTrees.labels(root, base));
    actual.keySet().removeIf(entry -> !entry.startsWith("var/log"));
    assertEquals(expected.keySet(), actual.keySet());
    assertEquals(List.of(), differences(expected, actual));
    assertFalse(before.equals(AttrTrees.labels(covered, base)), "the covered entries were scrambled");

    Files.writeString(root.resolve(".autorelabel"), "-F -N 2010-01-01 -M ");
    AttrTrees.Run since = runToTheEnd(root);
    assertEquals(0, since.status(), since::toString);
    assertTrue(since.out().contains("autorelabel: ignoring -M in /.autorelabel: it relabels whole filesystems,"
        + " not with -N"), since::toString);
    assertFalse(Files.exists(root.resolve(".autorelabel")), since::toString);
  }

  /**
   * Enforcing, outside relabel_t (relabel's policy module not installed: the JVM ran as
   * unconfined_java_t), the relabel switches SELinux to permissive for the boot and says so, as
   * Debian's selinux-autorelabel does; in relabel_t, or when already permissive, it leaves the mode
   * alone. The root's sys/fs/selinux/enforce and proc/self/attr/current stand for the kernel's.
   */
  @Test
  void enforcingOutsideItsOwnDomainTheRelabelGoesPermissiveAndSaysSo() throws Exception {
    Path root = scrambledRoot("enforcing", "-F ");
    Path enforce = root.resolve("sys/fs/selinux/enforce");
    Path context = root.resolve("proc/self/attr/current");
    Files.createDirectories(enforce.getParent());
    Files.createDirectories(context.getParent());
    Files.writeString(enforce, "1");
    Files.writeString(context, "system_u:system_r:unconfined_java_t:s0\0");
    AttrTrees.Run unconfined = runToTheEnd(root);
    assertEquals(0, unconfined.status(), unconfined::toString);
    assertEquals("0", Files.readString(enforce), "switched to permissive");
    assertTrue(unconfined.out().contains("*** relabel runs in system_u:system_r:unconfined_java_t:s0, not in its own"
        + " SELinux domain relabel_t (its policy module is not installed): SELinux is permissive for this relabel"
        + " boot"), unconfined::toString);
    assertFalse(Files.exists(root.resolve(".autorelabel")), "relabelled");

    for (String[] state : new String[][] {{"1", "system_u:system_r:relabel_t:s0"}, {"0", "system_u:system_r:unconfined_java_t:s0"}}) {
      Files.writeString(root.resolve(".autorelabel"), "-F ");
      Files.writeString(enforce, state[0]);
      Files.writeString(context, state[1]);
      AttrTrees.Run run = runToTheEnd(root);
      assertEquals(0, run.status(), run::toString);
      assertEquals(state[0], Files.readString(enforce), "the mode is left alone in " + state[1]);
      assertFalse(run.out().contains("permissive for this relabel boot"), run::toString);
      assertTrue(run.out().contains("*** relabel runs in " + state[1] + (state[0].equals("1")
          ? ": SELinux stays enforcing." : "; SELinux is not enforcing.")), run::toString);
      assertFalse(Files.exists(root.resolve(".autorelabel")), "relabelled");
    }
  }
}
