package dev.relabel.cli.lookup;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.PolicyOption;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyCache;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code relabel compile}: writes a policy's compiled form ({@link PolicyCache}), which every later
 * start reads instead of parsing and checking the text, as {@code sefcontext_compile} writes
 * {@code file_contexts.bin} for libselinux.
 */
@Command(
    name = "compile",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Compile a policy's file_contexts (with its .homedirs, .local, .subs and .subs_dist) into"
          + " FILE_CONTEXTS" + PolicyCache.SUFFIX + " beside it, which every relabel verb then"
          + " loads instead of the text while it is fresh: the specs already parsed and checked,"
          + " each expression's translation ready (compiled only when a lookup first needs it).",
      "",
      "The policy is checked as setfiles checks it; a policy with an error is refused with every"
          + " problem as 'relabel: FILE:LINE: message', and nothing is written. The compiled file is"
          + " written whole or not at all (a temporary file, synced, renamed over the old one),"
          + " mode 0644.",
      "",
      "A compiled policy is used only while each file it came from is unchanged (same identity"
          + " and times, or else the same SHA-256), it is whole (CRC-32), this relabel wrote it,"
          + " and it is owned by root or the user running relabel and writable by no one else."
          + " Otherwise relabel says why on standard error ('relabel: ignoring compiled policy ...')"
          + " and reads the text, so a forgotten compile costs time, never a wrong label.",
      "",
      "Run it whenever the policy changes: after semodule or semanage fcontext, from a package"
          + " hook, or at the end of a policy build. packaging/install.sh runs it for the system"
          + " policy.",
    },
    footerHeading = "%nExit status:%n",
    footer = {
      "  0  compiled (with --check: the compiled policy is there and would be used)",
      "  1  the policy has errors or cannot be read, the compiled file cannot be written, or a"
          + " usage error (with --check: it is missing or would be ignored; why is on standard error)",
    })
public final class CompileCommand implements Callable<Integer> {
  @ParentCommand
  private IoHost parent;

  @Mixin
  private PolicyOption policy;

  @Option(
      names = "--check",
      description = {"Write nothing: exit 0 when FILE_CONTEXTS" + PolicyCache.SUFFIX + " is there and would be"
          + " used, 1 (saying why) when it would not."})
  private boolean check;

  @Option(
      names = {"-v", "--verbose"},
      description = {"Say what was compiled: one line on standard output."})
  private boolean verbose;

  @Override
  public Integer call() throws PolicyException, IOException {
    Path file = policy.file();
    PrintStream out = new PrintStream(parent.io().out(), true, parent.io().charset());
    if (check) {
      Optional<String> problem = PolicyCache.problem(file);
      if (problem.isPresent()) {
        throw new Failure(problem.get());
      }
      if (verbose) {
        out.println(PolicyCache.fileFor(file) + " is fresh");
      }
      return ExitStatus.OK;
    }
    PolicyCache.Compiled compiled = PolicyCache.compile(file, LabelMatcher::compiledSection);
    if (verbose) {
      out.println("compiled " + file + " into " + compiled.file() + ": " + compiled.specs() + " specs, "
          + compiled.expressions() + " expressions, " + compiled.bytes() + " bytes");
    }
    return ExitStatus.OK;
  }
}
