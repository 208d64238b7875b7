package dev.relabel.bench.tree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A file tree shaped like a Debian system's (FHS): the same top-level directories, the same kind of
 * names, depths and fan-out, so that a relabel of it asks the policy the questions a real system
 * asks (/usr/bin, shared libraries and their symlinks, Python packages, man pages, /etc/*.d,
 * /var/lib, /var/log, home directories, /srv, /opt, /var/www ...).
 *
 * <p>Deterministic: the same seed and size give the same {@link #plan}, entry for entry, in the
 * same order. Files are empty (labels are xattrs; contents do not matter); there are no hard links
 * (setfiles would warn about them) and no device nodes.
 */
public final class TreeGenerator {
  /** One entry to create, relative to the root; {@code target} is set for symlinks only. */
  public record Node(String path, Kind kind, String target) {
    public enum Kind { DIRECTORY, FILE, SYMLINK }
  }

  private static final String[] WORDS = {
    "acl", "adduser", "apache2", "apt", "attr", "avahi", "base", "bash", "binutils", "bluez", "bsd", "bzip2",
    "ca", "certs", "cloud", "console", "coreutils", "cpio", "cron", "cups", "curl", "dbus", "debconf", "dpkg",
    "e2fs", "elf", "exim", "fdisk", "file", "findutils", "fontconfig", "fuse", "gawk", "gcc", "gdbm", "gettext",
    "git", "glib", "gnome", "gnupg", "gpg", "grep", "grub", "gtk", "gzip", "hicolor", "hostname", "icu", "init",
    "iproute", "iptables", "isc", "jansson", "java", "kbd", "kmod", "krb5", "ldap", "less", "locales", "logrotate",
    "lvm2", "lz4", "lzma", "man", "mariadb", "mawk", "mesa", "mount", "nano", "ncurses", "netbase", "nettle",
    "nginx", "nss", "openssh", "openssl", "pam", "passwd", "pcre", "perl", "php", "policykit", "postfix",
    "procps", "psmisc", "python3", "qt5", "readline", "rsync", "rsyslog", "ruby", "samba", "sed", "selinux",
    "sensible", "shadow", "sqlite3", "ssl", "sudo", "systemd", "tar", "tcl", "tzdata", "udev", "unzip", "util",
    "vim", "wget", "x11", "xauth", "xkb", "xml2", "xz", "zlib", "zstd"
  };
  private static final String[] LANGS = {"de", "es", "fr", "it", "ja", "nl", "pl", "pt_BR", "ru", "sv", "zh_CN"};
  private static final String[] USERS = {"alice", "bob", "carol", "dave", "erin"};

  /**
   * An area of the tree: its share of the entries, its fixed directories, and how it grows: the
   * deepest level a new directory may be made at (relative to the area's base), the chance that a
   * new entry is a directory, a symlink, and how files are named.
   */
  private record Area(String base, double share, List<String> fixed, int maxDepth, double dirChance,
      double linkChance, Naming naming) {}

  /** How an area names its files. */
  private enum Naming {
    EXECUTABLE, SHARED_LIBRARY, PYTHON, DOC, MAN, LOCALE, HEADER, MODULE, CONFIG, STATE, LOG, HOME, WEB, DATA
  }

  private static final List<Area> AREAS = List.of(
      new Area("usr/bin", 0.05, List.of(), 0, 0.0, 0.08, Naming.EXECUTABLE),
      new Area("usr/sbin", 0.01, List.of(), 0, 0.0, 0.05, Naming.EXECUTABLE),
      new Area("usr/lib/x86_64-linux-gnu", 0.09, List.of("gconv", "perl5/5.36", "security", "gdk-pixbuf-2.0/2.10.0/loaders"),
          3, 0.08, 0.2, Naming.SHARED_LIBRARY),
      new Area("usr/lib/python3/dist-packages", 0.14, List.of(), 5, 0.2, 0.0, Naming.PYTHON),
      new Area("usr/lib/systemd/system", 0.01, List.of(), 1, 0.03, 0.2, Naming.CONFIG),
      new Area("usr/lib/modules/6.1.0-28-amd64/kernel", 0.05, List.of("drivers", "fs", "net", "sound", "crypto"),
          5, 0.18, 0.0, Naming.MODULE),
      new Area("usr/libexec", 0.01, List.of(), 2, 0.1, 0.0, Naming.EXECUTABLE),
      new Area("usr/share/doc", 0.11, List.of(), 2, 0.3, 0.03, Naming.DOC),
      new Area("usr/share/man", 0.06, manDirectories(), 0, 0.0, 0.05, Naming.MAN),
      new Area("usr/share/locale", 0.05, localeDirectories(), 0, 0.0, 0.0, Naming.LOCALE),
      new Area("usr/share", 0.12, List.of("icons/hicolor/48x48/apps", "icons/hicolor/scalable/apps", "zoneinfo/Europe",
          "zoneinfo/America", "perl5", "fonts/truetype/dejavu", "applications", "mime/packages", "X11/xkb/symbols",
          "selinux/default", "dbus-1/system.d", "polkit-1/actions"), 4, 0.18, 0.02, Naming.DATA),
      new Area("usr/include", 0.04, List.of("linux", "x86_64-linux-gnu/sys", "openssl", "glib-2.0/gio"), 3, 0.12, 0.0,
          Naming.HEADER),
      new Area("usr/local", 0.005, List.of("bin", "lib", "share/man", "src"), 3, 0.15, 0.0, Naming.EXECUTABLE),
      new Area("etc", 0.06, List.of("apt/apt.conf.d", "apt/sources.list.d", "cron.d", "cron.daily", "logrotate.d",
          "sudoers.d", "profile.d", "systemd/system/multi-user.target.wants", "init.d", "ssh", "ssl/certs",
          "ssl/private", "pam.d", "default", "network/if-up.d", "X11/xorg.conf.d", "selinux", "security/limits.d",
          "modprobe.d", "sysctl.d", "udev/rules.d", "nginx/sites-available", "nginx/sites-enabled", "apache2/conf.d",
          "php/8.2/cli/conf.d", "mysql/conf.d", "dbus-1/system.d", "alternatives", "rc2.d", "rc3.d"),
          2, 0.12, 0.06, Naming.CONFIG),
      new Area("var/lib", 0.06, List.of("dpkg/info", "apt/lists", "mysql", "postgresql/15/main", "systemd/timers",
          "dhcp", "ucf/cache", "polkit-1", "sudo/lectured", "docker/volumes", "nginx", "php/sessions"),
          4, 0.18, 0.0, Naming.STATE),
      new Area("var/log", 0.02, List.of("apt", "journal", "nginx", "apache2", "mysql", "installer", "private",
          "sssd", "samba", "cups"), 2, 0.05, 0.0, Naming.LOG),
      new Area("var/cache", 0.02, List.of("apt/archives/partial", "man/cat1", "debconf", "fontconfig", "ldconfig"),
          2, 0.05, 0.0, Naming.DATA),
      new Area("var/spool", 0.005, List.of("cron/crontabs", "postfix/maildrop", "cups", "mail"), 1, 0.02, 0.0,
          Naming.STATE),
      new Area("var/www", 0.02, List.of("html", "html/wp-content/uploads", "cgi-bin", "html/assets/js"), 4, 0.12,
          0.0, Naming.WEB),
      new Area("home", 0.05, homeDirectories(), 5, 0.18, 0.02, Naming.HOME),
      new Area("root", 0.005, List.of(".ssh", ".cache", ".config"), 2, 0.1, 0.0, Naming.HOME),
      new Area("srv", 0.01, List.of("www/site", "ftp/pub", "rsync", "git/repos"), 4, 0.12, 0.0, Naming.WEB),
      new Area("opt", 0.02, List.of("google/chrome", "vendor/app/bin", "vendor/app/lib", "vendor/app/share/man/man1",
          "jdk-17/bin", "jdk-17/lib"), 4, 0.12, 0.05, Naming.SHARED_LIBRARY),
      new Area("boot", 0.002, List.of("grub/i386-pc", "grub/fonts"), 1, 0.0, 0.0, Naming.MODULE),
      new Area("run", 0.003, List.of("systemd", "user/1000", "lock", "udev/data"), 2, 0.05, 0.0, Naming.STATE),
      new Area("usr/src", 0.003, List.of("linux-headers-6.1.0-28-amd64/include"), 4, 0.15, 0.0, Naming.HEADER));

  private TreeGenerator() {}

  /** The {@code size} entries of the tree for {@code seed}, parents before children. */
  public static List<Node> plan(int size, long seed) {
    if (size < 1) {
      throw new IllegalArgumentException("a tree needs at least one entry: " + size);
    }
    Builder tree = new Builder(size);
    // The root's own layout first, like every Debian system's, then the areas by share.
    for (String top : List.of("bin", "lib", "lib64", "sbin")) {
      tree.symlink("", top, "usr/" + top);
    }
    for (String top : List.of("etc", "home", "media", "mnt", "opt", "proc", "root", "run", "srv", "sys", "tmp",
        "usr", "var", "var/tmp")) {
      tree.directory(top);
    }
    double total = AREAS.stream().mapToDouble(Area::share).sum();
    int fixedBudget = tree.remaining();
    for (int i = 0; i < AREAS.size() && tree.remaining() > 0; i++) {
      Area area = AREAS.get(i);
      int budget = i == AREAS.size() - 1 ? tree.remaining() : (int) Math.round(fixedBudget * area.share() / total);
      // Each area draws from its own stream: resizing one area does not reshuffle the others.
      grow(tree, area, Math.min(budget, tree.remaining()), new SplittableRandom(seed * 1_000_003L + i));
    }
    // Rounding may leave a few entries: they go to the biggest area, deterministically.
    if (tree.remaining() > 0) {
      grow(tree, AREAS.get(3), tree.remaining(), new SplittableRandom(seed * 1_000_003L + AREAS.size()));
    }
    return tree.nodes;
  }

  /** Creates the tree for {@code seed} under {@code root} (which must exist); its entry count. */
  public static int generate(Path root, int size, long seed) throws IOException {
    List<Node> nodes = plan(size, seed);
    for (Node node : nodes) {
      Path path = root.resolve(node.path());
      switch (node.kind()) {
        case DIRECTORY -> Files.createDirectory(path);
        case FILE -> Files.createFile(path);
        case SYMLINK -> Files.createSymbolicLink(path, Path.of(node.target()));
      }
    }
    return nodes.size();
  }

  private static void grow(Builder tree, Area area, int budget, SplittableRandom random) {
    int end = tree.nodes.size() + budget;
    List<String> directories = new ArrayList<>();
    Map<String, Integer> depth = new HashMap<>();
    if (tree.directory(area.base()) == null) {
      return;
    }
    directories.add(area.base());
    depth.put(area.base(), 0);
    for (String fixed : area.fixed()) {
      String path = tree.nodes.size() >= end ? null : tree.directory(area.base() + "/" + fixed);
      if (path == null) {
        return;
      }
      directories.add(path);
      depth.put(path, fixed.split("/").length);
    }
    List<String> files = new ArrayList<>();
    while (tree.nodes.size() < end) {
      // Half the entries go to any directory, half to the newer ones: real trees fill a package's
      // directory right after making it. A flat area (man sections, locales) fills evenly.
      int pick = area.maxDepth() == 0 || random.nextBoolean() ? random.nextInt(directories.size())
          : directories.size() - 1 - (int) Math.min(directories.size() - 1,
              Math.abs(random.nextGaussian()) * Math.max(1, directories.size() / 3.0));
      String parent = directories.get(pick);
      int level = depth.get(parent);
      double roll = random.nextDouble();
      if (roll < area.dirChance()) {
        // A directory as deep as the area goes gets no subdirectory: another one may, else a file
        // (not a symlink, which would skew their share).
        for (int tries = 0; level >= area.maxDepth() && tries < 4; tries++) {
          parent = directories.get(random.nextInt(directories.size()));
          level = depth.get(parent);
        }
        if (level >= area.maxDepth()) {
          files.add(tree.child(parent, fileName(area.naming(), random), false, null));
          continue;
        }
        String path = tree.child(parent, directoryName(area.naming(), level, random), true, null);
        directories.add(path);
        depth.put(path, level + 1);
      } else if (!files.isEmpty() && roll < area.dirChance() + area.linkChance()) {
        String target = files.get(random.nextInt(files.size()));
        String targetName = target.substring(target.lastIndexOf('/') + 1);
        String name = area.naming() == Naming.SHARED_LIBRARY && targetName.contains(".so.")
            ? targetName.substring(0, targetName.indexOf(".so.") + 3) + "." + (random.nextInt(3) + 1)
            : fileName(area.naming(), random) + "-link";
        String relative = parentOf(target).equals(parent) ? targetName : "/" + target;
        tree.child(parent, name, false, relative);
      } else {
        files.add(tree.child(parent, fileName(area.naming(), random), false, null));
      }
    }
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  private static String word(SplittableRandom random) {
    return WORDS[random.nextInt(WORDS.length)];
  }

  private static String directoryName(Naming naming, int level, SplittableRandom random) {
    return switch (naming) {
      case PYTHON -> level == 0 ? word(random) + (random.nextInt(4) == 0 ? "-" + (random.nextInt(9) + 1) + ".0.dist-info" : "")
          : random.nextInt(4) == 0 ? "__pycache__" : word(random);
      case DOC -> level == 0 ? "lib" + word(random) + (random.nextInt(9) + 1) : "examples";
      case HOME -> switch (random.nextInt(8)) {
        case 0 -> ".cache";
        case 1 -> ".local";
        case 2 -> ".config";
        case 3 -> "Documents";
        case 4 -> "src";
        case 5 -> ".mozilla";
        default -> word(random);
      };
      case MODULE -> word(random);
      case SHARED_LIBRARY -> level == 0 ? word(random) : random.nextBoolean() ? "lib" : "bin";
      default -> word(random) + (random.nextInt(3) == 0 ? ".d" : "");
    };
  }

  private static String fileName(Naming naming, SplittableRandom random) {
    String w = word(random);
    int n = random.nextInt(30);
    return switch (naming) {
      case EXECUTABLE -> random.nextInt(5) == 0 ? w + "-" + word(random) : w + (n < 3 ? n : "");
      case SHARED_LIBRARY -> "lib" + w + (n < 10 ? "-" + word(random) : "") + ".so." + (n % 7) + "." + n + "." + (n % 4);
      case PYTHON -> random.nextInt(6) == 0 ? "__init__.py" : w + (random.nextInt(3) == 0 ? ".cpython-311.pyc" : ".py");
      case DOC -> switch (random.nextInt(5)) {
        case 0 -> "copyright";
        case 1 -> "changelog.Debian.gz";
        case 2 -> "README" + (n < 15 ? ".md" : "");
        case 3 -> "NEWS.gz";
        default -> w + ".txt";
      };
      case MAN -> w + (n < 5 ? "-" + word(random) : "") + "." + (1 + n % 8) + ".gz";
      case LOCALE -> w + ".mo";
      case HEADER -> w + (n < 4 ? "_" + word(random) : "") + ".h";
      case MODULE -> w + (n < 20 ? ".ko.xz" : ".ko");
      case CONFIG -> switch (random.nextInt(6)) {
        case 0 -> w + ".conf";
        case 1 -> w + ".service";
        case 2 -> "S0" + n + w;
        case 3 -> w + ".pem";
        default -> w;
      };
      case STATE -> switch (random.nextInt(4)) {
        case 0 -> w + ".list";
        case 1 -> w + ".md5sums";
        case 2 -> w + ".db";
        default -> w + "." + n;
      };
      case LOG -> w + ".log" + (n < 20 ? "." + (n % 5 + 1) + ".gz" : "");
      case HOME -> switch (random.nextInt(7)) {
        case 0 -> ".bashrc";
        case 1 -> ".profile";
        case 2 -> w + ".pdf";
        case 3 -> w + ".jpg";
        case 4 -> "authorized_keys";
        default -> w + ".txt";
      };
      case WEB -> switch (random.nextInt(5)) {
        case 0 -> "index.html";
        case 1 -> w + ".php";
        case 2 -> w + ".cgi";
        case 3 -> w + ".js";
        default -> w + ".css";
      };
      case DATA -> switch (random.nextInt(5)) {
        case 0 -> w + ".png";
        case 1 -> w + ".svg";
        case 2 -> w + ".xml";
        case 3 -> w + ".desktop";
        default -> w;
      };
    };
  }

  private static List<String> manDirectories() {
    List<String> dirs = new ArrayList<>();
    for (int section = 1; section <= 8; section++) {
      dirs.add("man" + section);
    }
    for (String lang : List.of("de", "fr", "ja")) {
      dirs.add(lang + "/man1");
    }
    return dirs;
  }

  private static List<String> localeDirectories() {
    List<String> dirs = new ArrayList<>();
    for (String lang : LANGS) {
      dirs.add(lang + "/LC_MESSAGES");
    }
    return dirs;
  }

  private static List<String> homeDirectories() {
    List<String> dirs = new ArrayList<>();
    for (String user : USERS) {
      dirs.add(user);
      dirs.add(user + "/.ssh");
      dirs.add(user + "/public_html");
    }
    return dirs;
  }

  /** The tree so far: every path made, unique names within each directory, and a size cap. */
  private static final class Builder {
    final List<Node> nodes = new ArrayList<>();
    final Set<String> paths = new HashSet<>();
    final int size;

    Builder(int size) {
      this.size = size;
    }

    int remaining() {
      return size - nodes.size();
    }

    /**
     * Makes {@code path} and any missing parent (each counted); returns it, or null when the tree
     * is full before it could be made.
     */
    String directory(String path) {
      String parent = parentOf(path);
      if (!parent.isEmpty() && !paths.contains(parent) && directory(parent) == null) {
        return null;
      }
      if (!paths.contains(path)) {
        if (nodes.size() >= size) {
          return null;
        }
        paths.add(path);
        nodes.add(new Node(path, Node.Kind.DIRECTORY, null));
      }
      return path;
    }

    void symlink(String parent, String name, String target) {
      child(parent, name, false, target);
    }

    /** A new entry in {@code parent}, its name made unique there; returns its path, or null when full. */
    String child(String parent, String name, boolean directory, String target) {
      if (nodes.size() >= size) {
        return null;
      }
      String prefix = parent.isEmpty() ? "" : parent + "/";
      String path = prefix + name;
      for (int n = 2; paths.contains(path); n++) {
        path = prefix + name + "." + n;
      }
      paths.add(path);
      Node.Kind kind = directory ? Node.Kind.DIRECTORY : target != null ? Node.Kind.SYMLINK : Node.Kind.FILE;
      nodes.add(new Node(path, kind, target));
      return path;
    }
  }
}
