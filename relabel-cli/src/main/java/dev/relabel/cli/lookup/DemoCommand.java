package dev.relabel.cli.lookup;

import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.Reporting;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.report.RelabelListener;
import dev.relabel.walk.RelabelOptions;
import dev.relabel.report.RelabelReport;
import dev.relabel.walk.Relabeler;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.commons.io.file.PathUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code relabel demo}: the main job on a bundled example, safe on any machine. It builds a small
 * FHS-shaped tree in a new temporary directory, then relabels it with the sample policy bundled
 * in the jar, treating the temporary directory as "/" (setfiles' {@code -r}). The bundled policy
 * never touches a path outside that directory.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    description = {
      "Label a sample tree in a new temporary directory with the bundled sample policy, and show what changed.",
      "Nothing outside the temporary directory is read or written.",
    })
public final class DemoCommand implements Callable<Integer> {
  /** Where the build puts the sample policy (policy-fixtures' "sample" fixture) inside the jar. */
  static final String SAMPLE = "/dev/relabel/cli/sample/";
  private static final List<String> SAMPLE_FILES = List.of("file_contexts", "file_contexts.subs_dist");
  private static final List<String> TREE = List.of(
      "etc/", "etc/passwd", "etc/shadow", "etc/ssh/", "etc/ssh/ssh_host_ed25519_key", "etc/hostname",
      "usr/", "usr/bin/", "usr/bin/bash", "usr/bin/passwd", "usr/sbin/", "usr/sbin/sshd", "usr/lib/",
      "usr/lib/libc.so.6", "usr/share/", "usr/share/doc/", "usr/share/doc/README",
      "home/", "home/alice/", "home/alice/notes.txt", "home/alice/.ssh/", "home/alice/.ssh/id_ed25519",
      "var/", "var/log/", "var/log/syslog", "var/log/wtmp", "var/www/", "var/www/html/", "var/www/html/index.html",
      "var/www/cgi-bin/", "var/www/cgi-bin/form.cgi", "run/", "run/sshd.pid", "tmp/", "tmp/scratch", "srv/");

  @ParentCommand private IoHost parent;

  @Option(names = "--keep", description = "Keep the temporary directory and print its path, to inspect it (getfattr -R -n security.selinux DIR).")
  private boolean keep;

  @Mixin
  private ThreadsOption threads;

  @Mixin
  private JsonOption json;

  @Override
  public Integer call() throws Exception {
    // Writing security.* attributes needs CAP_SYS_ADMIN where SELinux is off: without it, show
    // what would be labelled instead of failing on every entry.
    boolean dryRun = !mayWriteSecurityAttributes();
    Reporting reporting = Reporting.start(parent.io(), "demo", json, null, true, dryRun);
    PrintStream out = new PrintStream(reporting.io().out(), true, parent.io().charset());
    Path work = Files.createTempDirectory("relabel-demo-");
    try {
      Path policyDir = Files.createDirectories(work.resolve("policy"));
      for (String name : SAMPLE_FILES) {
        try (InputStream in = DemoCommand.class.getResourceAsStream(SAMPLE + name)) {
          if (in == null) {
            throw new Failure("the sample policy is missing from this build (" + SAMPLE + name + ")");
          }
          Files.copy(in, policyDir.resolve(name));
        }
      }
      Path root = Files.createDirectories(work.resolve("root"));
      for (String entry : TREE) {
        Path path = root.resolve(entry);
        if (entry.endsWith("/")) {
          Files.createDirectories(path);
        } else {
          Files.writeString(path, "sample\n");
        }
      }
      Path fileContexts = policyDir.resolve("file_contexts");
      out.println("Sample policy: " + fileContexts);
      out.println("Sample tree:   " + root + " (labelled as if it were /)");
      out.println();
      LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(fileContexts));
      if (dryRun) {
        out.println("Not running as root: security.selinux cannot be written here, so this is a dry run (-n).");
        out.println();
      }
      RelabelOptions options = RelabelOptions.defaults().withThreads(threads.count(0)).withAlternateRoot(root)
          .withCheckSeclabel(false).withDryRun(dryRun);
      reporting.threads(options.workerCount());
      RelabelListener printer = new RelabelListener() {
        @Override
        public void changed(RelabelReport.Change change) {
          synchronized (out) {
            String from = change.from() == null ? "(null)" : change.from();
            String verb = change.applied() ? "Relabeled " : "Would relabel ";
            out.println(verb + change.pathText() + " from " + from + " to " + change.to());
          }
        }

        @Override
        public void failed(RelabelReport.Failure failure) {
          synchronized (out) {
            out.println("Could not label " + failure.pathText() + ": " + failure.message());
          }
        }
      };
      RelabelReport report = Relabeler.onDisk(matcher, options, reporting.listener(printer)).run(List.of(root));
      reporting.completed(report);
      out.println();
      out.printf("%d entries visited, %d %s, %d left alone (<<none>> or no spec), %d failed, in %d ms%n",
          report.visited(), report.relabeled(), dryRun ? "would be relabeled" : "relabeled", report.unmatched(),
          report.failures().size(), report.elapsed().toMillis());
      return reporting.finish(report.succeeded() ? ExitStatus.OK : ExitStatus.FAILURE);
    } finally {
      if (keep) {
        out.println("Kept " + work);
      } else {
        delete(work);
      }
    }
  }

  private static boolean mayWriteSecurityAttributes() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | RuntimeException e) {
      return true; // cannot tell: try, and report what fails
    }
  }

  private static void delete(Path work) {
    try {
      PathUtils.deleteDirectory(work);
    } catch (IOException e) {
      // Best effort: the directory is in the system's temporary directory.
    }
  }
}
