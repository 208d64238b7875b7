package dev.relabel.cli.tar;

import dev.relabel.cli.common.PolicyOption;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.Reporting;
import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.IoHost;
import dev.relabel.archive.ArchiveException;
import dev.relabel.archive.Codec;
import dev.relabel.archive.DirectoryArchiver;
import dev.relabel.archive.TarLabeller;
import dev.relabel.archive.TarSource;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.WholeFile;
import dev.relabel.report.ChangeSummary;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.commons.io.output.CloseShieldOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code relabel tar}: labels a tar stream (or a directory, archived on the way) from the policy
 * alone, as any user, with no kernel extended attribute read or written: the image builder's
 * path. The work is {@link TarLabeller}'s and {@link DirectoryArchiver}'s; this maps the command
 * line onto them, picks the codecs and writes OUT whole or not at all.
 */
@Command(
    name = "tar",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Label a tar archive (ustar, GNU or PAX; plain, gzip, bzip2, xz or zstd, detected) as setfiles -F would label"
          + " its extraction, without extracting it and without privileges: each member gets the context the"
          + " policy gives its path (the archive's root as /) in a SCHILY.xattr.security.selinux PAX record,"
          + " as GNU tar --xattrs writes it, and in the RHT.security.selinux (tar --selinux) or"
          + " LIBARCHIVE.xattr.security.selinux (bsdtar) record where the member had one; members the"
          + " policy leaves alone keep theirs; everything else is copied byte for byte. IN and OUT default to"
          + " standard input and output ('-' names them); OUT is written whole or not at all, compressed as"
          + " its name says (.gz, .bz2, .xz, .zst; standard output: as IN) unless --compress is given.",
      "With -C DIR, archive DIR (as tar -C DIR -cf - .) with the policy's labels instead; DIR's own"
          + " security attributes are never read or written.",
      "With --check, write nothing and exit 1 when some member's label is not the policy's, with a summary.",
    },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:done (with --check: every label is the policy's)",
      "1:an error (a usage error, an unusable policy, an unreadable or corrupt archive); with --check:"
          + " some label differs",
      "2:with --check only: no check could be made (an error)",
    })
public final class TarCommand implements Callable<Integer> {

  @ParentCommand
  private IoHost parent;

  @Mixin
  private PolicyOption policy;

  @Option(names = {"-C", "--directory"}, paramLabel = "DIR",
      description = "Archive DIR (as tar -C DIR -cf - .) instead of reading an archive; then the only"
          + " parameter is OUT.")
  private Path directory;

  @Option(names = "--check", description = "Write no archive: report the members whose label is not the"
      + " policy's and exit 1 when there are any.")
  private boolean check;

  @Option(names = "--compress", paramLabel = "CODEC",
      description = "Compress OUT with CODEC: none, gzip, bzip2, xz or zstd (default: from OUT's name; standard output: as IN).")
  private String compress;

  @Mixin
  private ThreadsOption threads;

  @Option(names = "--top", paramLabel = "N", defaultValue = "10",
      description = "With --check: how many directories and transitions to list (default ${DEFAULT-VALUE}).")
  private int top;

  @Parameters(paramLabel = "IN_OUT", arity = "0..2", description = "[IN [OUT]], or with -C: [OUT].")
  private List<String> files = new ArrayList<>();

  @Mixin
  private JsonOption json;

  @Override
  public Integer call() throws IOException, PolicyException {
    String in = directory == null && !files.isEmpty() ? files.get(0) : "-";
    String out = directory == null ? (files.size() > 1 ? files.get(1) : "-") : (files.isEmpty() ? "-" : files.get(0));
    if (directory != null && files.size() > 1) {
      throw new Failure("with -C DIR the only parameter is OUT (see 'relabel tar --help')");
    }
    if (check && (directory == null ? files.size() > 1 : !files.isEmpty())) {
      throw new Failure("--check writes no archive: OUT is not taken (see 'relabel tar --help')");
    }
    if (json.enabled() && !check && out.equals("-")) {
      throw new Failure("--json writes the report on standard output: give OUT, or --check (see 'relabel tar --help')");
    }
    Path outPath = out.equals("-") ? null : PathBytes.path(out);
    // the name the codec is told by ("/" has no last name: itself)
    String outName = outPath == null || outPath.getFileName() == null ? out : outPath.getFileName().toString();
    Codec chosen = null;
    if (compress != null) {
      chosen = Codec.named(compress).orElseThrow(() -> new Failure("--compress " + compress
          + ": not one of none, gzip, bzip2, xz, zstd"));
    } else if (outPath != null) {
      java.util.Optional<String> unwritable = Codec.unwritable(outName);
      if (unwritable.isPresent()) {
        throw new Failure(out + ": the name asks for " + unwritable.get() + ", which relabel tar does not write"
            + " (gzip, bzip2, xz, zstd or none): give another name, or --compress");
      }
      chosen = Codec.forFileName(outName);
    }
    try (Reporting reporting = Reporting.start(parent.io(), "tar", json, null, false, check)) {
      if (!check) {
        try {
          return reporting.finish(label(reporting, in, out, outPath, chosen));
        } catch (ArchiveException e) {
          throw new Failure(shown(in) + ": " + e.getMessage(), e);
        }
      }
      try {
        return reporting.finish(check(reporting, in));
      } catch (IOException | PolicyException | Failure e) {
        String message = e instanceof PolicyException p ? String.join("\nrelabel: ",
            p.errors().stream().map(Object::toString).toList())
            : e instanceof ArchiveException ? shown(in) + ": " + e.getMessage()
            : e instanceof java.nio.file.FileSystemException fs && fs.getFile() != null
                ? FailureReport.fileMessage(fs) : e.getMessage();
        reporting.io().err().write(("relabel: " + message + "\n").getBytes(reporting.io().charset()));
        if (reporting.json() != null) {
          reporting.json().error(null, 0, message);
        }
        return reporting.finish(ExitStatus.TAR_CHECK_ERROR);
      }
    }
  }

  private String shown(String in) {
    return directory != null ? PathBytes.text(directory) : in.equals("-") ? "standard input" : in;
  }

  private TarLabeller labeller(Reporting reporting, RelabelListener output) throws IOException, PolicyException {
    LabelMatcher matcher = PolicyOption.matcher(policy.file());
    return TarLabeller.builder(matcher).threads(threads.count(0)).listener(reporting.listener(output)).build();
  }

  /**
   * Prints hard-link conflicts as setfiles does, and what was odd about the archive (its end)
   * after its name, as errors about it are.
   */
  private RelabelListener warnings(Io io, String in, RelabelListener next) {
    return new RelabelListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        next.changed(change);
      }

      @Override
      public void conflicted(byte[] other, byte[] previous, String context) {
        print(RelabelListener.conflict(other, previous, context));
      }

      @Override
      public void warned(String message) {
        print(shown(in) + ": " + message);
      }

      private void print(String message) {
        try {
          io.err().write(("relabel: " + message + "\n").getBytes(io.charset()));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
  }

  private int check(Reporting reporting, String in) throws IOException, PolicyException {
    Io io = reporting.io();
    ChangeSummary summary = new ChangeSummary();
    TarLabeller labeller = labeller(reporting, warnings(io, in, summary));
    RelabelReport report;
    if (directory != null) {
      report = DirectoryArchiver.archive(directory, labeller, null);
    } else {
      try (Input input = Input.open(io, in)) {
        report = labeller.check(input.source());
      }
    }
    reporting.completed(report);
    PrintStream text = new PrintStream(io.out(), true, io.charset());
    text.printf(Locale.ROOT, "Check of %s:%n", shown(in));
    text.printf(Locale.ROOT, "  %,d of %,d entries have a label other than the policy's (%,d left alone by it)%n",
        report.relabeled(), report.visited(), report.unmatched());
    if (report.relabeled() > 0) {
      text.print(ChangeSummary.table("By directory", summary.byDirectory(), top));
      text.print(ChangeSummary.table("By type (old -> new)", summary.byTransition(), top));
    }
    text.flush();
    return report.relabeled() > 0 ? ExitStatus.TAR_DIFFERS : ExitStatus.OK;
  }

  /**
   * Labels IN (or archives DIR) into OUT, {@code outPath} (null: standard output); {@code chosen}
   * is the codec --compress or OUT's name asks for, null for standard output without --compress.
   */
  private int label(Reporting reporting, String in, String out, Path outPath, Codec chosen)
      throws IOException, PolicyException {
    Io io = reporting.io();
    TarLabeller labeller = labeller(reporting, warnings(io, in, new RelabelListener() {}));
    try (Input input = directory == null ? Input.open(io, in) : null) {
      Codec codec = chosen != null ? chosen : input != null ? input.codec() : Codec.NONE;
      RelabelReport report;
      if (outPath == null) {
        // Compressed only once the first byte comes: a run that fails before it (a bad archive,
        // found by the first pass) writes nothing at all, not an empty compressed stream.
        try (OutputStream compressed = new LazyCompression(codec, CloseShieldOutputStream.wrap(io.out()))) {
          report = write(labeller, input, compressed);
        }
      } else if (Files.isDirectory(outPath)) {
        throw new Failure(out + ": Is a directory");
      } else if (Files.exists(outPath) && !Files.isRegularFile(outPath)) {
        // a pipe, FIFO or device (>(zstd > x.tar.zst), /dev/stdout): written as it comes, as
        // standard output is; renaming a temporary over it would replace it with a file
        try (OutputStream target = Files.newOutputStream(outPath);
            OutputStream compressed = new LazyCompression(codec, target)) {
          report = write(labeller, input, compressed);
        }
      } else {
        // through a symbolic link: the file it names is replaced, the link kept
        Path file = Files.exists(outPath) ? outPath.toRealPath() : outPath;
        // (OUT's directory missing: no archive to leave out; writing OUT says it is missing)
        Path parent = file.toAbsolutePath().getParent();
        if (directory != null && Files.isDirectory(parent) && Files.isDirectory(directory)
            && parent.toRealPath().startsWith(directory.toRealPath())) {
          io.err().write(("relabel: " + out + ": file is the archive; not dumped\n").getBytes(io.charset()));
        }
        report = writeWhole(labeller, input, file, codec);
      }
      reporting.completed(report);
      return ExitStatus.OK;
    }
  }

  private RelabelReport write(TarLabeller labeller, Input input, OutputStream out) throws IOException {
    return write(labeller, input, out, List.of());
  }

  /** With -C, {@code archives} (OUT and its temporary) are left out where they lie in DIR. */
  private RelabelReport write(TarLabeller labeller, Input input, OutputStream out, List<Path> archives)
      throws IOException {
    return directory != null ? DirectoryArchiver.archive(directory, labeller, out, archives)
        : labeller.label(input.source(), out);
  }

  /**
   * Writes OUT whole ({@link WholeFile}), keeping its mode (a new one gets 0644); with -C, OUT and
   * the temporary beside it are left out where they lie in DIR.
   */
  private RelabelReport writeWhole(TarLabeller labeller, Input input, Path out, Codec codec) throws IOException {
    Path absolute = out.toAbsolutePath();
    return WholeFile.write(out, Files.exists(absolute) ? Files.getPosixFilePermissions(absolute) : WholeFile.READABLE,
        (stream, temporary) -> {
          // closing the compressed stream finishes it; the file stays open to be synced
          try (OutputStream compressed = codec.compress(CloseShieldOutputStream.wrap(stream))) {
            return write(labeller, input, compressed, List.of(absolute, temporary));
          }
        });
  }

  /**
   * IN: a file; or standard input, or a pipe or FIFO named as IN ({@code <(zcat image.tar.gz)},
   * {@code /dev/stdin}), copied to a temporary file first (the labeller reads its input twice:
   * once for the hard links, once to label). {@code shown} is what messages call it.
   */
  private record Input(Path file, boolean temporary, String shown, Codec codec) implements AutoCloseable {
    static Input open(Io io, String name) throws IOException {
      Path file;
      boolean temporary;
      if (name.equals("-")) {
        file = copied(io.in());
        temporary = true;
      } else {
        file = PathBytes.path(name);
        temporary = !Files.isRegularFile(file);
        if (temporary) {
          if (!Files.exists(file)) {
            throw new Failure(name + ": No such file or directory");
          }
          if (Files.isDirectory(file)) {
            throw new Failure(name + ": Is a directory (-C DIR archives a directory)");
          }
          try (InputStream stream = Files.newInputStream(file)) {
            file = copied(stream);
          }
        }
      }
      Codec codec;
      try (InputStream raw = new java.io.BufferedInputStream(Files.newInputStream(file))) {
        codec = Codec.detect(raw).codec();
      }
      return new Input(file, temporary, name.equals("-") ? "standard input" : name, codec);
    }

    /** A temporary file holding what {@code stream} gives. */
    private static Path copied(InputStream stream) throws IOException {
      Path file = Files.createTempFile("relabel-tar-", ".in");
      try (OutputStream copy = Files.newOutputStream(file)) {
        stream.transferTo(copy);
      } catch (IOException e) {
        Files.deleteIfExists(file);
        throw e;
      }
      return file;
    }

    TarSource source() {
      TarSource source = TarSource.of(file);
      return () -> {
        try {
          return source.open();
        } catch (IOException e) {
          throw new IOException(shown + ": " + e.getMessage(), e);
        }
      };
    }

    @Override
    public void close() throws IOException {
      if (temporary) {
        Files.deleteIfExists(file);
      }
    }
  }
}
