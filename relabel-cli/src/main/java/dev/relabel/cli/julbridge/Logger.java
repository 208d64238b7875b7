package dev.relabel.cli.julbridge;

/**
 * A java.util.logging logger as JNA and JLine use one: a name, and the JDK's logging started only
 * for a record it would print (see the package's description).
 */
public final class Logger {
  /**
   * Whether the user configured java.util.logging, so that its configuration, not its default
   * (INFO and above printed), decides what is printed.
   */
  private static final boolean CONFIGURED = System.getProperty("java.util.logging.config.file") != null
      || System.getProperty("java.util.logging.config.class") != null;

  private final String name;
  /** The JDK's logger of that name, made on the first record that is printed. */
  private volatile System.Logger system;

  private Logger(String name) {
    this.name = name;
  }

  public static Logger getLogger(String name) {
    return new Logger(name);
  }

  public String getName() {
    return name;
  }

  public boolean isLoggable(Level level) {
    return CONFIGURED ? system().isLoggable(level.systemLevel()) : level.intValue() >= Level.INFO.intValue();
  }

  public void log(Level level, String message) {
    if (isLoggable(level)) {
      system().log(level.systemLevel(), message);
    }
  }

  public void log(Level level, String message, Object parameter) {
    if (isLoggable(level)) {
      system().log(level.systemLevel(), message, parameter);
    }
  }

  public void log(Level level, String message, Object[] parameters) {
    if (isLoggable(level)) {
      system().log(level.systemLevel(), message, parameters);
    }
  }

  public void log(Level level, String message, Throwable thrown) {
    if (isLoggable(level)) {
      system().log(level.systemLevel(), message, thrown);
    }
  }

  public void log(LogRecord record) {
    if (isLoggable(record.getLevel())) {
      System.Logger named = record.getLoggerName() == null || record.getLoggerName().equals(name)
          ? system() : System.getLogger(record.getLoggerName());
      if (record.getThrown() != null) {
        named.log(record.getLevel().systemLevel(), record.getMessage(), record.getThrown());
      } else {
        named.log(record.getLevel().systemLevel(), record.getMessage());
      }
    }
  }

  public void warning(String message) {
    log(Level.WARNING, message);
  }

  public void finest(String message) {
    log(Level.FINEST, message);
  }

  private System.Logger system() {
    System.Logger logger = system;
    if (logger == null) {
      logger = System.getLogger(name);
      system = logger;
    }
    return logger;
  }
}
