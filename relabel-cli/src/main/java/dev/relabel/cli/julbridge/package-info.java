/**
 * What the relabel jar's copies of JNA and JLine call instead of {@code java.util.logging}: the
 * shade plugin rewrites their references to {@code java.util.logging.Logger}, {@code Level} and
 * {@code LogRecord} to the classes here (relabel-cli's pom.xml, "relocations").
 *
 * <p>Why: JNA's classes each hold a {@code Logger} in a static field, so the first use of JNA
 * started java.util.logging ({@code Level}'s static initialiser links the process's first lambda,
 * {@code LogManager} reads {@code logging.properties}, and the JDK looks for a {@code LoggerFinder}
 * service on the class path, opening relabel.jar's central directory): 11 ms of a one-file
 * restorecon's 56 on a host whose JVM starts in 28 ms (20-25 ms on slower ones), on its critical
 * path, for loggers that print nothing in a normal run (benchmarks/RESULTS.md, "Twelfth pass"). Here a logger is a name; a record reaches the JDK's
 * logging (through {@link System.Logger}, whose default backend is java.util.logging) only when
 * java.util.logging's default configuration would print it (INFO and above), or, when the user
 * configured java.util.logging ({@code java.util.logging.config.file} or {@code .class}), when that
 * configuration says so. What the user sees is the same but for the source line a JUL console
 * handler prints above the message (this package's class instead of JNA's).
 *
 * <p>No class here may name {@code java.util.logging}: the relocation would rewrite that name too.
 * {@code JulBridgeIT} checks, on the built jar, that every member JNA and JLine call exists here.
 */
package dev.relabel.cli.julbridge;
