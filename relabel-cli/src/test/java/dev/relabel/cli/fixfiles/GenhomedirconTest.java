package dev.relabel.cli.fixfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Genhomedircon} running a script in genhomedircon's place. */
class GenhomedirconTest {
  @TempDir
  Path dir;

  private Path script(String body, String mode) throws Exception {
    Path script = dir.resolve("genhomedircon");
    Files.writeString(script, body);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString(mode));
    return script;
  }

  @Test
  void runsItWithNothingOnItsInputPassesItsOutputOnAndIgnoresItsStatus() throws Exception {
    Path marker = dir.resolve("ran");
    Path program = script("#!/bin/sh\ncat\necho out\necho err >&2\ntouch " + marker + "\nexit 3\n", "rwx------");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(Optional.empty(), new Genhomedircon(program).runIfPresent(out, err));
    assertTrue(Files.exists(marker), "it did not run");
    assertEquals("out\n", out.toString(StandardCharsets.UTF_8));
    assertEquals("err\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aMissingOrNotExecutableProgramIsNotRun() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(Optional.empty(), new Genhomedircon(dir.resolve("missing")).runIfPresent(out, out));
    Path marker = dir.resolve("ran");
    Path program = script("#!/bin/sh\ntouch " + marker + "\n", "rw-------");
    assertEquals(Optional.empty(), new Genhomedircon(program).runIfPresent(out, out));
    assertFalse(Files.exists(marker));
    assertEquals(0, out.size());
  }

  @Test
  void oneThatCannotBeStartedSaysWhy() throws Exception {
    Path program = script("#!/nonexistent/interpreter\n", "rwx------");
    Optional<String> why = new Genhomedircon(program).runIfPresent(new ByteArrayOutputStream(),
        new ByteArrayOutputStream());
    assertTrue(why.isPresent() && why.get().startsWith(program + ": "), why.toString());
  }
  @Test
  void anInterruptStopsTheWaitAndTheProgram() throws Exception {
    // A genhomedircon that says it started and then takes ten minutes: before the wait was
    // interruptible, SIGTERM could not stop relabel (blocked reading the pipe) until SignalStop's
    // watchdog halted it, and the program went on building the policy as an orphan.
    Path pidFile = dir.resolve("pid");
    Path program = script("#!/bin/sh\necho $$ > " + pidFile + ".new\nmv " + pidFile + ".new " + pidFile
        + "\necho started\nexec sleep 600\n", "rwx------");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AtomicBoolean interruptKept = new AtomicBoolean();
    Thread runner = new Thread(() -> {
      new Genhomedircon(program).runIfPresent(out, new ByteArrayOutputStream());
      interruptKept.set(Thread.currentThread().isInterrupted());
    });
    runner.start();
    while (!started(out)) {
      assertTrue(runner.isAlive(), "it returned before the program said it started");
      Thread.sleep(10);
    }
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    runner.interrupt();
    runner.join(Duration.ofMinutes(2).toMillis()); // a guard against a hang, not a time bound
    assertFalse(runner.isAlive(), "the interrupt did not end the wait");
    assertTrue(interruptKept.get(), "the interrupt was not kept for the verb to stop on");
    Optional<ProcessHandle> left = ProcessHandle.of(pid);
    if (left.isPresent()) {
      left.get().onExit().get(2, TimeUnit.MINUTES);
    }
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the program was left running");
  }

  private static boolean started(ByteArrayOutputStream out) {
    synchronized (out) {
      return out.toString(StandardCharsets.UTF_8).equals("started\n");
    }
  }
}
