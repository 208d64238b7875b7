package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.report.RelabelReport;
import dev.relabel.nativeio.Errno;

/**
 * Why chcon could not handle one entry, with what its message names, so that a front end can
 * word it as coreutils' chcon does.
 *
 * @param kind what failed
 * @param path the entry as the walk names it: the FILE given, and below it the names joined with '/'
 * @param accessName the entry as chcon's messages about its label name it: the FILE given for a
 *     root, the entry's own name below one (chcon works relative to the directory's descriptor)
 * @param errno the errno, or 0 where none
 * @param field for {@link Kind#BAD_FIELD}, the field's name ({@code user}, {@code range}, ...); else null
 * @param value the context it tried to set ({@link Kind#SET_FAILED}), the value refused
 *     ({@link Kind#BAD_FIELD}), the label that is no context ({@link Kind#MALFORMED}), what went
 *     wrong ({@link Kind#INTERNAL_ERROR}); else null
 */
public record ChconProblem(Kind kind, byte[] path, byte[] accessName, int errno, String field, String value) {
  public enum Kind {
    /** The entry could not be reached (fts' FTS_NS): "cannot access PATH". */
    CANNOT_ACCESS,
    /** A directory could not be read: "cannot read directory PATH"; it is not labelled. */
    CANNOT_READ_DIRECTORY,
    /** Its label could not be read: "failed to get security context of NAME". */
    GET_FAILED,
    /** A field edit on an entry without a label: "can't apply partial context to unlabeled file NAME". */
    UNLABELED,
    /** Its label is no context: "failed to create security context: LABEL". */
    MALFORMED,
    /** A value no field may hold: "failed to set FIELD security context component to VALUE". */
    BAD_FIELD,
    /** The label could not be written: "failed to change context of NAME to CONTEXT". */
    SET_FAILED,
    /** With {@code preserveRoot}, "/" given to recurse into: "it is dangerous to operate recursively on '/'". */
    DANGEROUS_ROOT,
    /**
     * With {@code preserveRoot}, "/" itself could not be stat'd, so no FILE can be told apart from
     * it: "failed to get attributes of /", and chcon stops before any FILE.
     */
    ROOT_UNREADABLE,
    /**
     * A directory the walk is inside, shown again beneath itself by a bind mount (fts's FTS_DC): chcon
     * warns that the directory structure is circular and neither labels nor enters it.
     */
    DIRECTORY_CYCLE,
    /**
     * A bug or an Error of the JVM (out of memory) while handling the entry, {@code value} saying
     * which: "PATH: internal error: VALUE", as the setfiles walk words one.
     */
    INTERNAL_ERROR,
  }

  /** As a relabel failure, with a message in chcon's words (paths and values unquoted). */
  public RelabelReport.Failure failure() {
    if (kind == Kind.DIRECTORY_CYCLE) {
      // As the setfiles walk reports one: a report reads the same whichever verb met it.
      return new RelabelReport.Failure(path, errno, RelabelReport.DIRECTORY_CYCLE);
    }
    String name = PathBytes.text(accessName);
    String message = switch (kind) {
      case CANNOT_ACCESS -> "cannot access " + PathBytes.text(path);
      case CANNOT_READ_DIRECTORY -> "cannot read directory " + PathBytes.text(path);
      case GET_FAILED -> "failed to get security context of " + name;
      case UNLABELED -> "can't apply partial context to unlabeled file " + name;
      case MALFORMED -> "failed to create security context: " + value;
      case BAD_FIELD -> "failed to set " + field + " security context component to " + value;
      case SET_FAILED -> "failed to change context of " + name + " to " + value;
      case DANGEROUS_ROOT -> "it is dangerous to operate recursively on " + PathBytes.text(path);
      case ROOT_UNREADABLE -> "failed to get attributes of " + PathBytes.text(path);
      case INTERNAL_ERROR -> "internal error: " + value;
      case DIRECTORY_CYCLE -> throw new AssertionError("worded above");
    };
    return new RelabelReport.Failure(path, errno, errno == 0 ? message : message + ": " + Errno.describe(errno));
  }
}
