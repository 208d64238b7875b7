package dev.relabel.cli.common;

import dev.relabel.nativeio.Errno;
import dev.relabel.policy.PolicyError;
import dev.relabel.policy.PolicyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A verb that failed by throwing, as the user sees it, on either path (picocli's execution
 * exception handler, and the quick path): every problem of an unusable policy on its own line
 * ({@code relabel: FILE:LINE: message}), otherwise one line; the status by the verb's
 * {@link ExitStatus.Scheme}.
 *
 * @param messages the lines written, without {@code relabel: }
 * @param status the exit status
 */
public record FailureReport(List<String> messages, int status) {
  /**
   * The C library's words for why a file operation failed, where the JDK names the error only by
   * its class.
   */
  public static String reason(Exception e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return Errno.strerror(Errno.ENOENT);
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return Errno.strerror(Errno.EACCES);
    }
    if (e instanceof java.nio.file.NotDirectoryException) {
      return Errno.strerror(Errno.ENOTDIR);
    }
    if (e instanceof java.nio.file.FileAlreadyExistsException) {
      return Errno.strerror(Errno.EEXIST);
    }
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return String.valueOf(e.getMessage());
  }

  /** {@code FILE: REASON} for a file operation that failed on the file the exception names. */
  public static String fileMessage(java.nio.file.FileSystemException e) {
    return e.getFile() + ": " + reason(e);
  }

  /**
   * Writes {@code e}'s lines on {@code err} (a stack trace too for an internal error with
   * {@code RELABEL_DEBUG}). {@code e} may be an Error the JVM threw (OutOfMemoryError,
   * StackOverflowError): one line and the verb's failure status as for any internal error, not the
   * JVM's uncaught-exception trace and status 1.
   */
  public static FailureReport report(Throwable e, PrintWriter err, ExitStatus.Scheme scheme) {
    List<String> messages = new ArrayList<>();
    boolean expected = true;
    if (e instanceof PolicyException policy) {
      for (PolicyError error : policy.errors()) {
        messages.add(error.toString());
      }
    } else if (e instanceof Failure) {
      messages.add(e.getMessage());
    } else if (e instanceof IOException || e instanceof UncheckedIOException) {
      IOException io = e instanceof UncheckedIOException unchecked ? unchecked.getCause() : (IOException) e;
      if (io instanceof java.nio.file.FileSystemException fs && fs.getFile() != null) {
        messages.add(fileMessage(fs));
      } else {
        // A codec's EOFException says nothing ("I/O error: null" for a cut gzip stream).
        String detail = io.getMessage() != null ? io.getMessage()
            : io instanceof java.io.EOFException ? "unexpected end of input (truncated?)" : io.getClass().getSimpleName();
        messages.add("I/O error: " + detail);
      }
    } else {
      messages.add("internal error: " + e);
      expected = false;
    }
    for (String message : messages) {
      err.println("relabel: " + message);
    }
    if (!expected && System.getenv("RELABEL_DEBUG") != null) {
      e.printStackTrace(err);
    }
    err.flush();
    return new FailureReport(messages, scheme.failure(e instanceof PolicyException));
  }
}
