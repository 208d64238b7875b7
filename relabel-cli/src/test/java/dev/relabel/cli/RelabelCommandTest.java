package dev.relabel.cli;

import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.Version;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.cli.Cli.Result;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The top-level command: help, version, usage errors. */
class RelabelCommandTest {
  @Test
  void helpListsTheCommands() {
    for (String flag : List.of("--help", "-h")) {
      Result r = Cli.run(flag);
      assertEquals(0, r.status());
      assertTrue(r.outLatin1().startsWith("Usage: relabel "), r::toString);
      assertTrue(r.outLatin1().contains("lookup"), r::toString);
      assertEquals("", r.err());
    }
  }

  @Test
  void everyVerbHasItsHelp() {
    // A '%' in a description is a format directive to picocli: a bad one breaks --help.
    for (String verb : RelabelCommand.commandLine(Io.system()).getSubcommands().keySet()) {
      if (verb.equals("help")) {
        continue; // picocli's own, tested above
      }
      Result r = Cli.run(verb, "--help");
      assertEquals(0, r.status(), verb + ": " + r);
      assertTrue(r.outLatin1().startsWith("Usage: relabel " + verb), verb + ": " + r);
    }
  }

  /** main builds only the verb it runs (see RelabelCommand.commandLine(Io, String[])); nothing else may differ. */
  @Test
  void aVerbAloneBehavesAsInTheWholeCommand() {
    for (String verb : RelabelCommand.commandLine(Io.system()).getSubcommands().keySet()) {
      // Only what cannot run a verb: some would relabel the system.
      for (List<String> args : List.of(List.of(verb, "--help"), List.of(verb, "--no-such-option"))) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RelabelCommand.commandLine(new Io(new ByteArrayInputStream(new byte[0]), out, err,
            StandardCharsets.UTF_8)).execute(args.toArray(String[]::new));
        Result alone = Cli.run(args.toArray(String[]::new));
        assertEquals(status, alone.status(), args::toString);
        assertEquals(out.toString(StandardCharsets.UTF_8), alone.outLatin1(), args::toString);
        assertEquals(err.toString(StandardCharsets.UTF_8), alone.err(), args::toString);
      }
    }
  }

  @Test
  void helpNamesEveryExitStatusTarCheckIncluded() {
    String help = Cli.run("--help").outLatin1().replaceAll("\\s+", " ");
    assertTrue(help.contains(" 2 plan and tar --check only: no plan or check could be made"), help);
  }

  /** What the boot relabel prints about SELinux's mode, and --no-reboot, as AutorelabelIT sees them printed. */
  @Test
  void autorelabelsHelpSaysWhatTheBootPrints() {
    String help = Cli.run("autorelabel", "--help").outLatin1().replaceAll("\\s+", " ");
    assertTrue(help.contains("'*** relabel runs in CONTEXT: SELinux stays enforcing.'"), help);
    assertTrue(help.contains("SELinux is switched to permissive for this boot"), help);
    assertTrue(help.contains("'*** relabel runs in CONTEXT, not in its own SELinux domain relabel_t (its policy"
        + " module is not installed): SELinux is permissive for this relabel boot, ...'"), help);
    assertTrue(help.contains("--no-reboot Do not reboot after the relabel: /.autorelabel is still removed"), help);
  }

  @Test
  void helpCommandShowsAVerbsHelp() {
    Result r = Cli.run("help", "lookup");
    assertEquals(0, r.status());
    assertTrue(r.outLatin1().startsWith("Usage: relabel lookup "), r::toString);
  }

  @Test
  void versionComesFromTheManifest() {
    // Run from target/classes there is no manifest version; LauncherIT checks the jar's.
    for (List<String> args : List.of(List.of("--version"), List.of("-V"), List.of("lookup", "--version"))) {
      Result r = Cli.run(args.toArray(String[]::new));
      assertEquals(0, r.status());
      assertEquals(List.of("relabel " + Version.version(),
          "running on Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + "), "
              + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
          // the build's (relabel-cli's pom names it for these tests, as bin/relabel names it)
          "librelabel " + System.getProperty("relabel.native")),
          r.lines());
      assertEquals("", r.err());
    }
  }

  @Test
  void noCommandIsAUsageError() {
    Result r = Cli.run();
    assertEquals(1, r.status());
    assertEquals(0, r.out().length);
    assertEquals(List.of("relabel: missing command: one of demo, lookup, setfiles, restorecon, chcon, restore, check, verify,"
        + " relabel, onboot, autorelabel, plan, compile, tar, help (see 'relabel --help')"), r.errLines());
  }

  @Test
  void unknownCommandIsAUsageError() {
    Result r = Cli.run("restorecon-ish", "/");
    assertEquals(1, r.status());
    assertEquals(1, r.errLines().size(), r::toString);
    assertTrue(r.err().startsWith("relabel: Unmatched arguments"), r::toString);
  }

  @Test
  void unexpectedFailuresAreOneLineWithoutStackTrace() {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    picocli.CommandLine commandLine = RelabelCommand.commandLine(new Io(
        new java.io.ByteArrayInputStream(new byte[0]), new java.io.ByteArrayOutputStream(), err,
        java.nio.charset.StandardCharsets.UTF_8));
    int status = RelabelCommand.onExecutionException(new IllegalStateException("boom"), commandLine, null);
    assertEquals(1, status);
    assertEquals("relabel: internal error: java.lang.IllegalStateException: boom\n", err.toString());

    err.reset();
    status = RelabelCommand.onExecutionException(new java.io.IOException("Broken pipe"), commandLine, null);
    assertEquals(1, status);
    assertEquals("relabel: I/O error: Broken pipe\n", err.toString());
  }
}
