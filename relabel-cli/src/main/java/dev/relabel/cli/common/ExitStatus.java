package dev.relabel.cli.common;

/**
 * Every exit status a verb returns, and the three schemes by which a verb's usage errors and
 * failures map to them: the bottom of the CLI, so that no verb reads another's constants.
 */
public final class ExitStatus {
  /** Success. */
  public static final int OK = 0;
  /** Any failure, usage errors included (as fixfiles' {@code usage} exits 1). */
  public static final int FAILURE = 1;
  /** {@code plan}: changes are planned. */
  public static final int PLAN_CHANGES = 1;
  /** {@code plan}: no plan could be made. */
  public static final int PLAN_ERROR = 2;
  /** setfiles' status for an unusable spec file, and with -C for entry errors only. */
  public static final int SETFILES_ERRORS = 1;
  /** setfiles' status for usage errors and fatal errors: {@code exit(-1)}. */
  public static final int SETFILES_FATAL = 255;

  /** {@code tar}: --check: some label differs. */
  public static final int TAR_DIFFERS = 1;
  /** {@code tar}: --check: no check could be made. */
  public static final int TAR_CHECK_ERROR = 2;

  private ExitStatus() {}

  /** How a verb's usage errors and failures (a thrown exception) exit. */
  public enum Scheme {
    /** Every verb but those below: 1 for both. */
    RELABEL(FAILURE, FAILURE, FAILURE),
    /** {@code plan}: 2, its "no plan" status, for both. */
    PLAN(PLAN_ERROR, PLAN_ERROR, PLAN_ERROR),
    /** setfiles.c under its names (setfiles, restorecon): 255, but 1 for an unusable policy. */
    SETFILES(SETFILES_FATAL, SETFILES_FATAL, SETFILES_ERRORS);

    private final int usageError;
    private final int failure;
    private final int policyFailure;

    Scheme(int usageError, int failure, int policyFailure) {
      this.usageError = usageError;
      this.failure = failure;
      this.policyFailure = policyFailure;
    }

    /** The status of a usage error. */
    public int usageError() {
      return usageError;
    }

    /** The status of a failure: an unusable policy, or any other. */
    public int failure(boolean unusablePolicy) {
      return unusablePolicy ? policyFailure : failure;
    }
  }

  /** A verb that does not exit as {@link Scheme#RELABEL}: it says which scheme it follows. */
  public interface Declared {
    Scheme exitScheme();
  }
}
