package dev.relabel.archive;

import static java.util.Objects.requireNonNull;

import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Labels a tar stream as {@code setfiles -F} would label its extraction, without extracting it:
 * each member gets the context the policy gives its path (the archive's root as {@code /}) and
 * type, in a {@code SCHILY.xattr.security.selinux} PAX record (the context and a NUL, as GNU tar
 * {@code --xattrs} writes what the kernel stores), and in each other tool's label record the member
 * had ({@code RHT.security.selinux}, {@code LIBARCHIVE.xattr.security.selinux}: see {@link
 * PaxRecords#withLabel}). Members the policy leaves alone ({@code <<none>>}, or no spec)
 * keep what they had. Everything else is copied byte for byte: member order, headers, other PAX
 * records, data.
 *
 * <p>Lookups run on {@code threads} workers ahead of the writer, which writes members in input
 * order; a window of at most {@link #WINDOW_MEMBERS} members and {@link #WINDOW_BYTES} bytes of
 * their data is held, and a member with more data than {@link #HELD_DATA} is streamed through,
 * so memory does not grow with the archive. A first pass reads the headers alone to learn the
 * hard links (see {@link HardLinks}). Events: {@code changed} for each member whose label
 * differs from the policy's ({@code applied} unless checking), {@code warned} for hard-link
 * conflicts. A truncated or corrupt archive stops the run with an {@link ArchiveException}.
 */
public final class TarLabeller {
  static final int WINDOW_MEMBERS = 4096;
  static final long WINDOW_BYTES = 16 << 20;
  static final long HELD_DATA = 1 << 20;

  private final LabelMatcher matcher;
  private final int threads;
  private final RelabelListener listener;

  private TarLabeller(Builder builder) {
    this.matcher = builder.matcher;
    this.threads = builder.threads;
    this.listener = builder.listener;
  }

  public static Builder builder(LabelMatcher matcher) {
    return new Builder(matcher);
  }

  /** Options: the worker count and the listener. */
  public static final class Builder {
    private final LabelMatcher matcher;
    private int threads = 1;
    private RelabelListener listener = new RelabelListener() {};

    private Builder(LabelMatcher matcher) {
      this.matcher = requireNonNull(matcher, "matcher");
    }

    /** Lookup workers; 0 for one per core. */
    public Builder threads(int threads) {
      if (threads < 0) {
        throw new IllegalArgumentException("threads must be 0 or more: " + threads);
      }
      this.threads = threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
      return this;
    }

    public Builder listener(RelabelListener listener) {
      this.listener = requireNonNull(listener, "listener");
      return this;
    }

    public TarLabeller build() {
      return new TarLabeller(this);
    }
  }

  /** Writes {@code source}'s archive, labelled, to {@code out} (uncompressed; not closed). */
  public RelabelReport label(TarSource source, OutputStream out) throws IOException {
    return run(source, requireNonNull(out, "out"));
  }

  /** Reads {@code source}'s archive and reports each member whose label differs from the policy's. */
  public RelabelReport check(TarSource source) throws IOException {
    return run(source, null);
  }

  /** One member read, its data when held, and its label's lookup. */
  private record Pending(TarMember member, byte[] data, Future<Label> label, HardLinks.Group group) {}

  private final class Run {
    final OutputStream out;
    final HardLinks links;
    final ExecutorService pool;
    final ArrayDeque<Pending> window = new ArrayDeque<>();
    long windowBytes;
    long visited;
    long relabeled;
    long unmatched;

    Run(OutputStream out, HardLinks links, ExecutorService pool) {
      this.out = out;
      this.links = links;
      this.pool = pool;
    }

    void read(TarReader reader) throws IOException {
      for (TarMember member = reader.next(); member != null; member = reader.next()) {
        HardLinks.Group group = member.labelled() ? links.groupOf(member, matcher, listener) : null;
        Future<Label> label = !member.labelled() || group != null ? null : lookup(member);
        if (member.paddedDataSize() > HELD_DATA) {
          flush(0, 0);
          write(new Pending(member, null, label, group));
          if (out == null) {
            reader.skipData();
          } else {
            reader.copyData(out);
          }
          continue;
        }
        byte[] data = out == null ? skip(reader) : reader.readData();
        window.add(new Pending(member, data, label, group));
        windowBytes += held(member, data);
        if (window.size() > WINDOW_MEMBERS || windowBytes > WINDOW_BYTES) {
          flush(WINDOW_MEMBERS / 2, WINDOW_BYTES / 2);
        }
      }
      flush(0, 0);
      reader.oddities().forEach(listener::warned);
      if (out != null) {
        reader.copyRest(out);
      }
    }

    private byte[] skip(TarReader reader) throws IOException {
      reader.skipData();
      return new byte[0];
    }

    private Future<Label> lookup(TarMember member) {
      if (pool == null) {
        return CompletableFuture.completedFuture(matcher.lookup(member.path(), member.type()));
      }
      return pool.submit(() -> matcher.lookup(member.path(), member.type()));
    }

    /**
     * What a held member costs: its data, and its headers, name and path, which a tree thousands
     * deep makes tens of KB each (4,096 of them were 400 MB).
     */
    private static long held(TarMember member, byte[] data) {
      return data.length + member.heldBytes();
    }

    /** Writes the oldest members until at most {@code keepMembers} and {@code keepBytes} are held. */
    private void flush(int keepMembers, long keepBytes) throws IOException {
      while (window.size() > keepMembers || (!window.isEmpty() && windowBytes > keepBytes)) {
        Pending pending = window.poll();
        windowBytes -= held(pending.member(), pending.data());
        write(pending);
        if (out != null) {
          out.write(pending.data());
        }
      }
    }

    private void write(Pending pending) throws IOException {
      TarMember member = pending.member();
      // The context to write in its label record; null: the member is written as it is (not an
      // entry, no spec for it, or its label records all hold the context already, NUL or not, as
      // setfiles leaves a label that is right).
      String relabelTo = null;
      if (member.labelled()) {
        visited++;
        String context = pending.group() != null ? pending.group().context()
            : await(pending.label()).context().orElse(null);
        if (context == null) {
          unmatched++;
        } else if (member.isHardLink() && member.currentLabel() == null) {
          // GNU tar --xattrs writes no label record for a hard link, and extracting one sets none:
          // it is its target's inode, whose member holds (and was given) the group's label.
        } else if (!member.pax().labelsOnly(context)) {
          relabeled++;
          relabelTo = context;
          listener.changed(new RelabelReport.Change(member.path(), member.pax().labelOtherThan(context), context,
              out != null));
        }
      }
      if (out != null) {
        if (relabelTo == null) {
          LabelledWriter.writeUnchanged(member, out);
        } else {
          LabelledWriter.writeLabelled(member, relabelTo, out);
        }
      }
    }
  }

  private RelabelReport run(TarSource source, OutputStream target) throws IOException {
    long start = System.nanoTime();
    return run(source, HardLinks.scan(source.open()), target, start);
  }

  /** Where this labeller reports; {@link DirectoryArchiver} says through it what it leaves out. */
  RelabelListener listener() {
    return listener;
  }

  /** One pass over {@code source}, whose hard links are {@code links}. */
  RelabelReport run(TarSource source, HardLinks links, OutputStream target, long start) throws IOException {
    ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads, daemon()) : null;
    OutputStream out = target == null ? null : new BufferedOutputStream(target, 1 << 16);
    Run run = new Run(out, links, pool);
    try (InputStream in = source.open()) {
      run.read(new TarReader(in));
      if (out != null) {
        out.flush();
      }
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
    return new RelabelReport(run.visited, run.relabeled, run.unmatched, List.of(), false,
        Duration.ofNanos(System.nanoTime() - start), List.of());
  }

  private static Label await(Future<Label> label) {
    try {
      return label.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new UncheckedIOException(new IOException(e.getCause()));
    }
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return task -> {
      Thread thread = new Thread(task, "relabel-tar-lookup");
      thread.setDaemon(true);
      return thread;
    };
  }
}
