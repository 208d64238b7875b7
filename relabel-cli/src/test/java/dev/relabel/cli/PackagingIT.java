package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * packaging/install.sh into a scratch prefix: the launcher, jar, man pages, completion, units and
 * generator land where it says, the installed launcher runs, and {@code systemd-analyze verify}
 * accepts the units (their ExecStart binaries and their man pages, found through MANPATH).
 */
class PackagingIT {
  @TempDir Path dir;
  private Path prefix;
  private Path unitDir;
  private Path generatorDir;

  @BeforeEach
  void install() throws Exception {
    Path top = LauncherScript.launcher("PackagingIT").getParent().getParent();
    prefix = dir.resolve("usr");
    unitDir = dir.resolve("lib/systemd/system");
    generatorDir = dir.resolve("lib/systemd/system-generators");
    // With this JVM's java, which the launcher runs below: the archive install.sh makes is its own.
    AttrTrees.Run install = AttrTrees.run(List.of(top.resolve("packaging/install.sh").toString(), "PREFIX=" + prefix,
        // Not this machine's policy: a test leaves /etc alone (the VM tests compile their guest's).
        "UNITDIR=" + unitDir, "GENERATORDIR=" + generatorDir, "COMPILE_POLICY=no"), dir, null,
        Map.of("JAVA_HOME", System.getProperty("java.home")));
    assertEquals(0, install.status(), install::toString);
  }

  @Test
  void everythingLandsAndTheLauncherRuns() throws Exception {
    for (Path file : List.of(prefix.resolve("bin/relabel"), prefix.resolve("share/relabel/relabel.jar"),
        prefix.resolve("share/man/man1/relabel.1"), prefix.resolve("share/man/man1/relabel-autorelabel.1"),
        prefix.resolve("share/bash-completion/completions/relabel"), unitDir.resolve("relabel-autorelabel.service"),
        unitDir.resolve("relabel-autorelabel.target"), unitDir.resolve("relabel-autorelabel-mark.service"),
        unitDir.resolve("relabel-autorelabel-failed.service"), prefix.resolve("lib/relabel/autorelabel-failed"),
        prefix.resolve("share/relabel/selinux/relabel.te"), prefix.resolve("share/relabel/selinux/relabel.fc"),
        generatorDir.resolve("relabel-autorelabel-generator"),
        prefix.resolve("lib/relabel/jna/linux-x86-64/libjnidispatch.so"),
        prefix.resolve("lib/relabel/jna/linux-aarch64/libjnidispatch.so"))) {
      assertTrue(Files.isRegularFile(file), file + " is missing");
    }
    String service = Files.readString(unitDir.resolve("relabel-autorelabel.service"));
    // systemd reboots after a relabel that exited 0 (SuccessAction=), not the relabel itself.
    assertTrue(service.contains("ExecStart=" + prefix + "/bin/relabel autorelabel --no-reboot\n"), service);
    assertTrue(service.contains("\nSuccessAction=reboot\n"), service);
    assertFalse(service.contains("@"), "every placeholder substituted: " + service);
    String failed = Files.readString(unitDir.resolve("relabel-autorelabel-failed.service"));
    assertTrue(failed.contains("ExecStart=" + prefix + "/lib/relabel/autorelabel-failed\n"), failed);
    AttrTrees.Run version = AttrTrees.run(List.of(prefix.resolve("bin/relabel").toString(), "--version"), dir, null,
        Map.of("JAVA_HOME", System.getProperty("java.home")));
    assertEquals(0, version.status(), version::toString);
    assertTrue(version.out().startsWith("relabel "), version::toString);
    // and the installed launcher names the installed librelabel
    assertTrue(version.out().contains("\nlibrelabel " + prefix + "/lib/relabel/jna/linux-"), version::toString);
    // The installed launcher finds JNA's installed native library: JNA need not (and here could
    // not) extract its own.
    AttrTrees.Run demo = AttrTrees.run(List.of(prefix.resolve("bin/relabel").toString(), "demo"), dir, null,
        Map.of("JAVA_HOME", System.getProperty("java.home"), "RELABEL_JAVA_OPTS", "-Djna.tmpdir=/dev/null/jna"));
    assertEquals(0, demo.status(), demo::toString);
    // Both archives made at the installed jar's path, and mapped (-Xshare:on: the JVM refuses to
    // start otherwise): the quick path's for --version, every verb's for compile.
    for (List<String> run : List.of(List.of("relabel-quick.jsa", "--version"), List.of("relabel.jsa", "compile", "--help"))) {
      Path archive = prefix.toRealPath().resolve("share/relabel").resolve(run.get(0));
      assertTrue(Files.isRegularFile(archive), "no class data sharing archive " + archive);
      List<String> command = new ArrayList<>(List.of(prefix.resolve("bin/relabel").toString()));
      command.addAll(run.subList(1, run.size()));
      AttrTrees.Run shared = AttrTrees.run(command, dir, null,
          Map.of("JAVA_HOME", System.getProperty("java.home"), "RELABEL_JAVA_OPTS", "-Xshare:on -Xlog:cds=info"));
      assertEquals(0, shared.status(), shared::toString);
      assertTrue(shared.out().contains("Opened archive " + archive + "."), shared::toString);
    }
  }

  /** What a package's post-install step runs, once its files are in place: one command remakes both archives. */
  @Test
  void makeArchivesRemakesBothArchivesWhereTheJarLies() throws Exception {
    Path share = prefix.toRealPath().resolve("share/relabel");
    for (String name : List.of("relabel", "relabel-quick")) {
      assertTrue(Files.isRegularFile(share.resolve(name + ".classlist")), name + ".classlist is not installed");
      Files.delete(share.resolve(name + ".jsa"));
    }
    Path makeArchives = prefix.resolve("lib/relabel/make-archives");
    assertTrue(Files.isExecutable(makeArchives), makeArchives + " is not installed executable");
    AttrTrees.Run make = AttrTrees.run(List.of(makeArchives.toString(), share.toString()), dir, null,
        Map.of("JAVA_HOME", System.getProperty("java.home")));
    assertEquals(0, make.status(), make::toString);
    assertEquals("", make.out() + make.err(), "nothing to say when it works");
    for (List<String> run : List.of(List.of("relabel-quick.jsa", "--version"), List.of("relabel.jsa", "compile", "--help"))) {
      List<String> command = new ArrayList<>(List.of(prefix.resolve("bin/relabel").toString()));
      command.addAll(run.subList(1, run.size()));
      AttrTrees.Run shared = AttrTrees.run(command, dir, null,
          Map.of("JAVA_HOME", System.getProperty("java.home"), "RELABEL_JAVA_OPTS", "-Xshare:on -Xlog:cds=info"));
      assertEquals(0, shared.status(), shared::toString);
      assertTrue(shared.out().contains("Opened archive " + share.resolve(run.get(0)) + "."), shared::toString);
    }
    // Where it cannot make one, it says so and fails: a package's step sees it.
    AttrTrees.Run broken = AttrTrees.run(List.of(makeArchives.toString(), share.toString(), "/nonexistent/java"), dir,
        null, Map.of());
    assertEquals(1, broken.status(), broken::toString);
    assertTrue(broken.err().contains("make-archives: no class data sharing archive " + share.resolve("relabel.jsa")),
        broken::toString);
  }

  @Test
  void systemdAcceptsTheUnits() throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/systemd-analyze"))) {
      AttrTrees.unavailable("systemd-analyze is missing (apt-get install systemd)");
    }
    AttrTrees.Run verify = AttrTrees.run(List.of("systemd-analyze", "verify",
        unitDir.resolve("relabel-autorelabel.service").toString(), unitDir.resolve("relabel-autorelabel.target").toString(),
        unitDir.resolve("relabel-autorelabel-mark.service").toString(),
        unitDir.resolve("relabel-autorelabel-failed.service").toString()), dir, null,
        Map.of("MANPATH", prefix.resolve("share/man").toString()));
    assertEquals(0, verify.status(), verify::toString);
    assertEquals("", verify.out() + verify.err(), "systemd-analyze verify has nothing to say");
  }

  @Test
  void theGeneratorLeavesTheBootAloneWithoutSelinux() throws Exception {
    // This machine runs without SELinux: whatever /.autorelabel says, the default target stays.
    Path early = Files.createDirectory(dir.resolve("early"));
    AttrTrees.Run run = AttrTrees.run(List.of(generatorDir.resolve("relabel-autorelabel-generator").toString(),
        dir.resolve("normal").toString(), early.toString(), dir.resolve("late").toString()), dir);
    assertEquals(0, run.status(), run::toString);
    try (var entries = Files.list(early)) {
      assertEquals(List.of(), entries.toList());
    }
  }
}
