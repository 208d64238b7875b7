package dev.relabel.cli.setfiles;

import dev.relabel.cli.output.Reporting;
import dev.relabel.cli.output.SetfilesOutput;
import dev.relabel.context.CustomizableTypes;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.walk.NativeFileTree;
import dev.relabel.walk.RelabelOptions;
import dev.relabel.walk.Relabeler;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The system's policy as restorecon and fixfiles use it: the file_contexts {@code selabel_open}
 * finds without a path, and the customizable types libselinux reads whatever the spec file.
 */
public final class SystemPolicy {
  private SystemPolicy() {}

  /**
   * The customizable types libselinux's is_context_customizable() reads: those of the system
   * policy ({@code /etc/selinux/TYPE/contexts/customizable_types}, TYPE from
   * {@code /etc/selinux/config}, {@code targeted} without one), whatever SPEC_FILE is.
   */
  public static Set<String> customizableTypes() throws IOException {
    Path fileContexts;
    try {
      fileContexts = PolicyLoader.systemFileContexts(Path.of("/"));
    } catch (PolicyException e) {
      fileContexts = Path.of("/etc/selinux", PolicyLoader.DEFAULT_POLICY_TYPE, "contexts/files/file_contexts");
    }
    return CustomizableTypes.forFileContexts(fileContexts);
  }

  /**
   * A labeller with the system's policy, as restorecon's {@code selabel_open} without a path finds
   * it ({@code /etc/selinux/TYPE/contexts/files/file_contexts}), and the system's customizable
   * types; in {@link PathLabeller.Mode#SETFILES} mode the policy is validated as setfiles validates
   * it (duplicate specs refused).
   */
  public static PathLabeller labeller(SetfilesOutput output, Charset charset, RelabelOptions options,
      PathLabeller.Mode mode, String alternateRoot, List<String> excludedDirectories, boolean trackUsedSpecs,
      Reporting reporting) throws IOException, PolicyException {
    return labeller(output, charset, options, mode, alternateRoot, excludedDirectories, trackUsedSpecs,
        Path.of("/"), null, reporting);
  }

  /**
   * As {@link #labeller(SetfilesOutput, Charset, RelabelOptions, PathLabeller.Mode, String, List, boolean,
   * Reporting)}, with the policy of the system installed under {@code policyRoot} (its
   * /etc/selinux/config names it), and, when {@code previous} is given, touching only what that
   * previous policy labels otherwise ({@code fixfiles -C}).
   */
  public static PathLabeller labeller(SetfilesOutput output, Charset charset, RelabelOptions options,
      PathLabeller.Mode mode, String alternateRoot, List<String> excludedDirectories, boolean trackUsedSpecs,
      Path policyRoot, Path previous, Reporting reporting) throws IOException, PolicyException {
    Path fileContexts = PolicyLoader.systemFileContexts(policyRoot);
    // setfiles validates its spec file and refuses duplicate specs (fixfiles' whole-system restore
    // runs setfiles); restorecon opens the policy without SELABEL_OPT_VALIDATE and lets the later
    // of two duplicates win.
    PolicyLoader loader = mode == PathLabeller.Mode.SETFILES ? PolicyLoader.validating() : PolicyLoader.lenient();
    LabelMatcher matcher = LabelMatcher.compile(loader.load(fileContexts));
    Set<String> customizable = policyRoot.equals(Path.of("/")) ? customizableTypes()
        : CustomizableTypes.forFileContexts(fileContexts);
    Relabeler relabeler = new Relabeler(matcher, customizable, options, new NativeFileTree(),
        reporting == null ? output : reporting.listener(output));
    if (previous != null) {
      relabeler = relabeler.changedSince(LabelMatcher.compile(PolicyLoader.lenient().load(previous)));
    }
    return new PathLabeller(charset, output, matcher, relabeler, mode, alternateRoot, excludedDirectories,
        options.ignoreMissing(), trackUsedSpecs).reportingTo(reporting);
  }
}
