package dev.relabel.cli.setfiles;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.output.SetfilesOutput;
import dev.relabel.nativeio.FileStat;
import dev.relabel.policy.FileType;
import java.nio.charset.Charset;
import java.util.List;

/** The option checks setfiles.c makes for both of its names, setfiles and restorecon. */
public final class SetfilesArgs {
  private SetfilesArgs() {}

  /**
   * {@code -e}: a path that cannot be stat'ed is ignored with a warning; a relative one is fatal
   * (status {@link ExitStatus#SETFILES_FATAL}, returned); null when every one is usable. Only
   * directories are ever excluded (libselinux checks exclusions on directories only), so a file is
   * dropped. The usable ones, without trailing slashes, are added to {@code into}.
   */
  static Integer checkExcludes(List<String> excludes, SetfilesOutput output, Charset charset, List<String> into) {
    for (String exclude : excludes) {
      PathLabeller.Lstat lstat = PathLabeller.lstat(charset, exclude);
      FileStat stat = lstat.stat();
      if (lstat.failedOtherThanAccess()) {
        output.error("Can't stat exclude path \"" + exclude + "\", " + lstat.reason() + " - ignoring.\n");
        continue;
      }
      if (!exclude.startsWith("/")) {
        output.fatal("Full path required for exclude: " + exclude + ".\n");
        return ExitStatus.SETFILES_FATAL;
      }
      if (stat != null && FileType.fromMode(stat.mode()) != FileType.DIRECTORY) {
        continue;
      }
      into.add(PathLabeller.stripTrailingSlashes(exclude));
    }
    return null;
  }
}
