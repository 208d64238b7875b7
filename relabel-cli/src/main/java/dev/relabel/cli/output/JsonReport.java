package dev.relabel.cli.output;

import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.Version;
import dev.relabel.policy.PathBytes;
import dev.relabel.report.ChangeSummary;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * The {@code --json} report of one command: one JSON object on standard output, described by
 * {@code report.schema.json} (next to this class; {@link #SCHEMA_RESOURCE}).
 *
 * <p>The one list that can be as long as the tree ({@code changes} of a relabel with
 * {@code -v}, {@code results} of a lookup) is streamed as entries arrive, so memory stays flat;
 * everything else (errors, warnings, messages, counts, status) is written by {@link #finish}.
 * A command that fails by throwing still ends its report (RelabelCommand's handlers call
 * {@link JsonOption#failed}). Listener calls come from the worker threads; every write holds
 * this object's lock.
 */
public final class JsonReport implements RelabelListener {
  /** The report's {@code format}: bumped when a field changes meaning or is removed. */
  public static final String FORMAT = "relabel-report/1";
  /** Where the JSON Schema of the report lies on the class path. */
  public static final String SCHEMA_RESOURCE = "/dev/relabel/cli/report.schema.json";

  /** What the command does: relabel verbs report changes and walk counts, lookup its answers. */
  public enum Kind {
    RELABEL("relabel", "changes"),
    LOOKUP("lookup", "results");

    final String json;
    final String streamed;

    Kind(String json, String streamed) {
      this.json = json;
      this.streamed = streamed;
    }

    /** A verb whose report is not {@link #RELABEL}'s: it says which, even when it fails before it runs. */
    public interface Declared {
      Kind reportKind();
    }
  }

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
      .build();

  private final JsonGenerator json;
  private final OutputStream out;
  private final Kind kind;
  private final String command;
  private final boolean withChanges;
  private final boolean dryRun;
  private final long startNanos = System.nanoTime();
  private final List<Error> errors = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private final List<byte[]> messages = new ArrayList<>();
  private final Map<String, Long> counts = new LinkedHashMap<>();
  private boolean cancelled;
  /** The walks' own durations, summed ({@code walkSeconds}); walks counts them. */
  private long walkNanos;
  private int walks;
  /** The worker threads the walk ran on; 0 until a verb that walks says. */
  private int threads;
  private boolean started;
  private boolean streaming;
  private boolean finished;

  /** One error: a path (null when the error is not about one entry), an errno (0 if none), words. */
  private record Error(byte[] path, int errno, String message) {}

  /** Every change, by directory and by type transition, whether listed or not. */
  private final ChangeSummary summary = new ChangeSummary();

  /**
   * @param out where the document goes (standard output); flushed, never closed
   * @param command the verb, as the user typed it ({@code setfiles}, {@code lookup}, ...)
   * @param withChanges whether to list each change ({@code -v}); relabel reports only
   * @param dryRun whether nothing is written ({@code -n}); relabel reports only
   */
  public JsonReport(OutputStream out, Kind kind, String command, boolean withChanges, boolean dryRun) {
    this.out = out;
    this.kind = kind;
    this.command = command;
    this.withChanges = withChanges;
    this.dryRun = dryRun;
    this.json = FACTORY.createGenerator(ObjectWriteContext.empty(), out);
    List<String> zero = kind == Kind.RELABEL ? List.of("visited", "relabeled", "unmatched", "errors", "warnings")
        : List.of("context", "none", "nomatch", "error");
    for (String name : zero) {
      counts.put(name, 0L);
    }
  }

  @Override
  public void changed(RelabelReport.Change change) {
    // The aggregate takes every change, listed or not, without this report's lock.
    summary.changed(change);
    listChange(change);
  }

  private synchronized void listChange(RelabelReport.Change change) {
    if (!withChanges || finished) {
      return;
    }
    startStreaming();
    json.writeStartObject();
    JsonText.writeBytes(json, "path", change.path());
    if (change.from() == null) {
      json.writeNullProperty("from");
    } else {
      json.writeStringProperty("from", change.from());
    }
    json.writeStringProperty("to", change.to());
    json.writeBooleanProperty("applied", change.applied());
    json.writeEndObject();
  }

  @Override
  public synchronized void failed(RelabelReport.Failure failure) {
    errors.add(new Error(failure.path(), failure.errno(), failure.message()));
  }

  /** With -D: a directory skipped with everything beneath, its digest unchanged ({@code skippedUnchanged} in counts). */
  @Override
  public synchronized void skippedUnchanged(byte[] path) {
    count("skippedUnchanged");
  }

  @Override
  public synchronized void warned(String message) {
    warnings.add(message);
  }

  /** A lookup's answer: {@code answer} is context, none, nomatch or error; context only for context. */
  public synchronized void result(byte[] path, String answer, String context) {
    startStreaming();
    json.writeStartObject();
    JsonText.writeBytes(json, "path", path);
    json.writeStringProperty("answer", answer);
    if (context != null) {
      json.writeStringProperty("context", context);
    }
    json.writeEndObject();
    count(answer);
  }

  /** An error that is not an engine failure: a request refused, a path given that does not exist. */
  public synchronized void error(byte[] path, int errno, String message) {
    errors.add(new Error(path, errno, message));
  }

  /** A line the command wrote to standard error (without its newline), kept in {@code messages}. */
  public synchronized void message(byte[] line) {
    messages.add(line);
  }

  /** Adds one walk's counts. */
  public synchronized void add(RelabelReport report) {
    count("visited", report.visited());
    count("relabeled", report.relabeled());
    count("unmatched", report.unmatched());
    cancelled |= report.cancelled();
    walkNanos += report.elapsed().toNanos();
    walks++;
  }

  /** The worker threads the walk runs on (-T, else $RELABEL_THREADS, else the verb's default; 0 resolved). */
  public synchronized void threads(int workers) {
    threads = workers;
  }

  /** Adds 1 to the count {@code name}. */
  public synchronized void count(String name) {
    count(name, 1);
  }

  private void count(String name, long n) {
    counts.merge(name, n, Long::sum);
  }

  /**
   * Writes the rest of the document and a newline, and flushes; later calls do nothing.
   *
   * @return {@code exitStatus}, for {@code return report.finish(status)}
   */
  public synchronized int finish(int exitStatus) {
    if (finished) {
      return exitStatus;
    }
    startStreaming();
    finished = true;
    json.writeEndArray();
    json.writeArrayPropertyStart("errors");
    for (Error error : errors) {
      json.writeStartObject();
      if (error.path() != null) {
        JsonText.writeBytes(json, "path", error.path());
      }
      json.writeNumberProperty("errno", error.errno());
      json.writeStringProperty("message", JsonText.message(error.message()));
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayPropertyStart("warnings");
    for (String warning : warnings) {
      json.writeString(JsonText.message(warning));
    }
    json.writeEndArray();
    json.writeArrayPropertyStart("messages");
    for (byte[] line : messages) {
      json.writeStartObject();
      JsonText.writeBytes(json, "text", line);
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeObjectPropertyStart("counts");
    if (kind == Kind.RELABEL) {
      counts.put("errors", (long) errors.size());
      counts.put("warnings", (long) warnings.size());
    }
    for (Map.Entry<String, Long> count : counts.entrySet()) {
      json.writeNumberProperty(count.getKey(), count.getValue());
    }
    json.writeEndObject();
    if (kind == Kind.RELABEL) {
      json.writeBooleanProperty("cancelled", cancelled);
      json.writeObjectPropertyStart("summary");
      writeCounts("byDirectory", summary.byDirectory(), true);
      writeCounts("byTransition", summary.byTransition(), false);
      json.writeEndObject();
    }
    if (walks > 0) {
      // The walk alone, without JVM start, policy load or this report: what thread scaling acts on.
      json.writeNumberProperty("walkSeconds", walkNanos / 1e9);
    }
    if (threads > 0) {
      json.writeNumberProperty("threads", threads);
    }
    json.writeNumberProperty("durationMs", (System.nanoTime() - startNanos) / 1_000_000);
    json.writeNumberProperty("exitStatus", exitStatus);
    json.writeEndObject();
    json.flush();
    try {
      out.write('\n');
      out.flush();
    } catch (java.io.IOException e) {
      // Standard output is gone: nobody is left to read the report.
    }
    return exitStatus;
  }

  /** {@code counts}, each key a directory's path ({@code keyBase64} too when it is not UTF-8) when {@code paths}. */
  private void writeCounts(String name, java.util.List<ChangeSummary.Count> counts, boolean paths) {
    json.writeArrayPropertyStart(name);
    for (ChangeSummary.Count count : counts) {
      json.writeStartObject();
      if (paths) {
        JsonText.writeBytes(json, "key", count.key().getBytes(PathBytes.charset()));
      } else {
        json.writeStringProperty("key", count.key());
      }
      json.writeNumberProperty("count", count.count());
      json.writeEndObject();
    }
    json.writeEndArray();
  }

  /** The header, once, then the opening of the streamed list. */
  private void startStreaming() {
    if (!started) {
      started = true;
      json.writeStartObject();
      json.writeStringProperty("format", FORMAT);
      json.writeStringProperty("kind", kind.json);
      json.writeStringProperty("command", command);
      json.writeStringProperty("version", Version.version());
      if (kind == Kind.RELABEL) {
        json.writeBooleanProperty("dryRun", dryRun);
        json.writeBooleanProperty("changesListed", withChanges);
      }
    }
    if (!streaming) {
      streaming = true;
      json.writeArrayPropertyStart(kind.streamed);
    }
  }
}
