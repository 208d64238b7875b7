package dev.relabel.cli.fixfiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * fixfiles' {@code [ -x /usr/sbin/genhomedircon ] && /usr/sbin/genhomedircon}, which its
 * {@code restore} runs before it labels anything (but with -B, -N or -C): libsemanage writes
 * {@code file_contexts.homedirs} anew from the users the system has now, so that a user added
 * since, whose home lies under a top directory the policy did not know, gets its home's labels
 * (Debian's genhomedircon is semodule under another name: build the policy, do not load it). Its
 * output is passed on and its exit status ignored, as fixfiles does; one that cannot be started is
 * a warning.
 */
final class Genhomedircon {
  static final Path PROGRAM = Path.of("/usr/sbin/genhomedircon");

  private final Path program;

  /** @param program the program ({@link #PROGRAM}; a test's script) */
  Genhomedircon(Path program) {
    this.program = program;
  }

  /**
   * Runs the program where it is executable, nothing on its standard input, its standard output
   * copied to {@code out} and its standard error to {@code err} as they come; returns when it has
   * ended. An interrupt (SIGINT or SIGTERM, through SignalStop) ends the wait at once: the
   * program is sent SIGTERM too, waited for a moment, and the interrupt is kept for the verb to
   * stop on (libsemanage builds the policy in a sandbox and commits it by renames, so a build cut
   * short leaves the policy as it was). Empty when it ran or is not there; why it could not be
   * started otherwise.
   */
  Optional<String> runIfPresent(OutputStream out, OutputStream err) {
    if (!Files.isExecutable(program)) {
      return Optional.empty();
    }
    Process process;
    try {
      process = new ProcessBuilder(program.toString()).start();
      process.getOutputStream().close();
    } catch (IOException e) {
      return Optional.of(program + ": " + e.getMessage());
    }
    // Both pipes are read by threads of their own: a read from a pipe is not interruptible, the
    // wait for the process is.
    Thread output = copier(process.getInputStream(), out, "relabel-genhomedircon-stdout");
    Thread errors = copier(process.getErrorStream(), err, "relabel-genhomedircon-stderr");
    try {
      process.waitFor();
      output.join();
      errors.join();
    } catch (InterruptedException e) {
      stop(process);
      Thread.currentThread().interrupt();
    }
    return Optional.empty();
  }

  /**
   * SIGTERM, then SIGKILL if it has not ended a second later. The pipes' threads are not waited
   * for: a child of the program's may still hold them open.
   */
  private static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(1, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException again) {
      process.destroyForcibly();
    }
  }

  private static Thread copier(InputStream from, OutputStream to, String name) {
    Thread thread = new Thread(() -> copy(from, to), name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /**
   * Copies {@code from} to its end; once {@code to} fails, the rest is read and dropped, so that
   * the program never blocks on a full pipe.
   */
  private static void copy(InputStream from, OutputStream to) {
    byte[] buffer = new byte[8192];
    boolean writing = true;
    try (from) {
      for (int n; (n = from.read(buffer)) >= 0; ) {
        if (writing) {
          try {
            synchronized (to) {
              to.write(buffer, 0, n);
              to.flush();
            }
          } catch (IOException e) {
            writing = false;
          }
        }
      }
    } catch (IOException e) {
      // the pipe from the program broke: there is nothing more to read
    }
  }
}
