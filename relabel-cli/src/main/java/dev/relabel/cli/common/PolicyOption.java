package dev.relabel.cli.common;

import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code -f, --file-contexts FILE_CONTEXTS} and {@code -r, --root ROOT} for the verbs outside
 * setfiles' getopt that read a policy file ({@code @Mixin PolicyOption policy;}: plan, tar): the
 * policy is FILE_CONTEXTS, else the one ROOT/etc/selinux/config names (ROOT: / without -r). What
 * else -r means is the verb's (plan also matches paths as if ROOT were /), and so are the words,
 * read from {@code Descriptions.properties} under {@code relabel.VERB.fileContexts} and
 * {@code relabel.VERB.root}.
 */
public final class PolicyOption {
  @Option(names = {"-f", "--file-contexts"}, paramLabel = "FILE_CONTEXTS", descriptionKey = "fileContexts")
  private Path fileContexts;

  @Option(names = {"-r", "--root"}, paramLabel = "ROOT", descriptionKey = "root")
  private Path root;

  /** -r as given; null without it. */
  public Path root() {
    return root;
  }

  /** The file_contexts to load: -f, else the system policy of ROOT (of / without -r). */
  public Path file() throws PolicyException {
    return fileContexts != null ? fileContexts : PolicyLoader.systemFileContexts(root == null ? Path.of("/") : root);
  }

  /** {@code file}, loaded with every check, compiled. */
  public static LabelMatcher matcher(Path file) throws IOException, PolicyException {
    return LabelMatcher.compile(PolicyLoader.validating().load(file));
  }
}
