package dev.relabel.policy;

import dev.relabel.regex.PcrePattern;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.zip.CRC32;

/**
 * A compiled policy: {@code FILE.relabel} beside {@code file_contexts}, as libselinux keeps
 * {@code file_contexts.bin} beside it. It holds what every start would otherwise recompute: the
 * parsed and validated specs of the five files, the path aliases, and the java.util.regex
 * translation of every expression that needs one (compiled on first use only); and, to know when
 * it no longer holds, a {@link SourceStamp} of each file it came from.
 *
 * <p>{@link #compile} writes one (whole or not at all: a temporary file in the same directory,
 * synced, then renamed over the old one); {@link PolicyLoader#load} reads it when it is trusted
 * and fresh and otherwise, with a warning, ignores it and reads the text: a cache that is stale
 * (a source changed, appeared or vanished), truncated or corrupt (its CRC-32 does not match),
 * written by another relabel or format, or not owned by root (or the user running relabel) or
 * writable by group or others, is never used. A compiled policy exists only for a policy that
 * loads without error in {@link PolicyLoader#validating()} mode, so either loader may use it.
 *
 * <p>A start reads it in one piece and decodes only what it uses ({@link CompiledSpecs}): the
 * specs are fixed-size records into a blob of text, so that a lookup of one path decodes the
 * few specs it reaches, and the matcher keeps its own precomputed part (its search order and
 * prefix index) in a section this class stores without reading ({@link #compile(Path,
 * Function)}, {@link Policy#matcherSection()}).
 *
 * <p>Layout (big-endian): magic, format, relabel's version, the stamps, the local and dist
 * aliases, the spec, context and translation counts, the blob (every expression, context and
 * translation, UTF-8, each once), the spec records ({@value CompiledSpecs#RECORD} ints each), the
 * context and translation records (offset and length in the blob), the matcher's section (its
 * length, then its bytes), and the CRC-32 of everything before it.
 */
public final class PolicyCache {
  /** What follows {@code file_contexts}' name in the compiled policy's. */
  public static final String SUFFIX = ".relabel";

  private static final byte[] MAGIC = "relabel compiled file_contexts\n".getBytes(StandardCharsets.US_ASCII);
  /** Bumped at every change of the layout or of what a field means. */
  static final int FORMAT = 2;
  /** The longest read java.io makes through a buffer on the stack (io_util.c's BUF_SIZE). */
  private static final int JAVA_IO_STACK_BUFFER = 8192;

  private PolicyCache() {}

  /** The compiled policy of {@code fileContexts}: {@code FILE.relabel} beside it. */
  public static Path fileFor(Path fileContexts) {
    return PolicyLoader.sibling(fileContexts, SUFFIX);
  }

  /** What {@link #compile} did. */
  public record Compiled(Path file, int specs, int expressions, long bytes) {}

  /**
   * Loads {@code fileContexts} from its text files, validating as setfiles does, and writes its
   * compiled policy beside it, replacing any there.
   *
   * @throws PolicyException when the policy does not load (nothing is written)
   * @throws IOException when the compiled policy cannot be written (nothing is replaced)
   */
  public static Compiled compile(Path fileContexts) throws PolicyException, IOException {
    return compile(fileContexts, policy -> new byte[0]);
  }

  /**
   * As {@link #compile(Path)}, storing beside the specs what {@code matcherSection} makes of the
   * policy (the matcher's search order and prefix index: {@code LabelMatcher::compiledSection}),
   * which a start then reads back instead of computing ({@link Policy#matcherSection()}).
   */
  public static Compiled compile(Path fileContexts, Function<Policy, byte[]> matcherSection)
      throws PolicyException, IOException {
    return compile(fileContexts, fileFor(fileContexts), matcherSection);
  }

  /** As {@link #compile(Path, Function)}, writing to {@code out} (which a load only reads beside its policy). */
  public static Compiled compile(Path fileContexts, Path out, Function<Policy, byte[]> matcherSection)
      throws PolicyException, IOException {
    Map<String, SourceStamp> stamps = new HashMap<>();
    Policy policy = PolicyLoader.validating().loadText(fileContexts, stamps);
    byte[] bytes = encode(policy, stamps, matcherSection.apply(policy));
    WholeFile.write(out, bytes);
    return new Compiled(out, policy.specs().size(), policy.compiledExpressions().size(), bytes.length);
  }

  /**
   * Why a load of {@code fileContexts} would not use a compiled policy (there is none, or it is
   * stale, corrupt, foreign or untrusted); empty when it would.
   */
  public static Optional<String> problem(Path fileContexts) {
    List<String> problems = new ArrayList<>();
    if (read(fileContexts, problems::add).isPresent()) {
      return Optional.empty();
    }
    return Optional.of(problems.isEmpty() ? "no compiled policy " + fileFor(fileContexts) : problems.get(0));
  }

  /**
   * The compiled policy beside {@code fileContexts}, when there is one and it may be used; empty
   * (after telling {@code warnings} why, unless there is none) otherwise.
   */
  static Optional<Policy> read(Path fileContexts, Consumer<String> warnings) {
    Path file = fileFor(fileContexts);
    try {
      return Optional.of(readUsable(fileContexts, file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (Unusable e) {
      warnings.accept("ignoring compiled policy " + PathBytes.text(file) + ": " + e.getMessage());
    } catch (IOException e) {
      warnings.accept("ignoring compiled policy " + PathBytes.text(file) + ": " + PolicyLoader.describe(e));
    }
    return Optional.empty();
  }

  /** The policy {@code file} holds, when it is trusted, whole and fresh; otherwise why not. */
  private static Policy readUsable(Path fileContexts, Path file) throws IOException, Unusable {
    String distrust = distrust(file);
    if (distrust != null) {
      throw new Unusable(distrust);
    }
    Decoded decoded = decode(fileContexts, readAll(file));
    for (SourceStamp stamp : decoded.stamps()) {
      String stale = stamp.staleReason(PolicyLoader.sibling(fileContexts, stamp.suffix()));
      if (stale != null) {
        throw new Unusable("stale, " + stale + " since it was compiled (run 'relabel compile')");
      }
    }
    return decoded.policy();
  }

  /**
   * The file's bytes, read through java.io: Files.readAllBytes reads a file this size through a
   * temporary direct buffer as large, zeroed first, which was a millisecond of every start.
   */
  private static byte[] readAll(Path file) throws IOException {
    if (!PathBytes.textNames(file)) {
      return Files.readAllBytes(file); // java.io cannot name it
    }
    try (java.io.RandomAccessFile in = new java.io.RandomAccessFile(file.toFile(), "r")) {
      // One array of the file's size (readAllBytes grows a buffer in steps); a file that grew
      // meanwhile fails its checksum.
      long size = in.length();
      if (size > Integer.MAX_VALUE - 8) {
        throw new IOException("too large for a compiled policy: " + size + " bytes");
      }
      byte[] bytes = new byte[(int) size];
      // Read in pieces that fit java.io's buffer on the stack: a longer read goes through a buffer
      // malloc'd for the call, whose fresh pages the kernel faults in one by one (4 ms for a
      // 760 KB policy on the benchmarks' virtual machine, against 0.5 ms in 8 KB reads).
      for (int at = 0; at < bytes.length; ) {
        int read = in.read(bytes, at, Math.min(JAVA_IO_STACK_BUFFER, bytes.length - at));
        if (read < 0) {
          throw new EOFException("shorter than its " + size + " bytes: it changed while it was read");
        }
        at += read;
      }
      return bytes;
    }
  }

  /**
   * Why the file at {@code file} must not be believed, or null: it decides the labels of every
   * file on the system, so only its owner and root may have written it.
   */
  private static String distrust(Path file) throws IOException {
    Map<String, Object> attributes = Files.readAttributes(file, "unix:uid,mode");
    int owner = (Integer) attributes.get("uid");
    int mode = (Integer) attributes.get("mode");
    if ((mode & 0170000) != 0100000) {
      return "not a regular file";
    }
    if (owner != 0 && owner != effectiveUid()) {
      return "owned by uid " + owner + ", neither root nor the user running relabel";
    }
    if ((mode & 0022) != 0) {
      return "writable by group or others (mode " + Integer.toOctalString(mode & 07777) + ")";
    }
    return null;
  }

  /** The user this process runs as: the owner of its {@code /proc/self}. */
  private static int effectiveUid() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }

  static byte[] encode(Policy policy, Map<String, SourceStamp> stamps, byte[] matcherSection) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(policy.specs().size() * 96 + matcherSection.length);
    try (DataOutputStream out = new DataOutputStream(buffer)) {
      out.write(MAGIC);
      out.writeInt(FORMAT);
      writeString(out, relabelVersion());
      out.writeInt(SourceStamp.SUFFIXES.length);
      for (String suffix : SourceStamp.SUFFIXES) {
        SourceStamp stamp = stamps.get(suffix);
        writeString(out, suffix);
        out.writeBoolean(stamp.present());
        out.writeLong(stamp.size());
        out.writeLong(stamp.device());
        out.writeLong(stamp.inode());
        out.writeLong(stamp.modifiedNanos());
        out.writeLong(stamp.changedNanos());
        out.writeBoolean(stamp.racy());
        byte[] digest = stamp.sha256();
        out.writeInt(digest.length);
        out.write(digest);
      }
      for (List<PathAlias> aliases : List.of(policy.localAliases(), policy.distAliases())) {
        out.writeInt(aliases.size());
        for (PathAlias alias : aliases) {
          writeString(out, alias.alias());
          writeString(out, alias.target());
        }
      }
      Blob blob = new Blob();
      // A policy has a few hundred contexts on thousands of lines: each is stored once.
      Map<String, Integer> contextOf = new HashMap<>();
      List<Integer> contexts = new ArrayList<>();
      List<Spec> specs = policy.specs();
      int[] records = new int[specs.size() * CompiledSpecs.RECORD];
      Map<String, Integer> translationOf = new HashMap<>();
      List<Integer> translations = new ArrayList<>();
      for (int i = 0; i < specs.size(); i++) {
        Spec spec = specs.get(i);
        PcrePattern expression = policy.compiledExpressions().get(spec.regex());
        int translation = -1;
        if (expression != null) {
          translation = translationOf.computeIfAbsent(spec.regex(), regex -> {
            long text = blob.add(expression.translation());
            translations.add((int) (text >>> 32));
            translations.add((int) text);
            return translations.size() / 2 - 1;
          });
        }
        long regex = blob.add(spec.regex());
        int at = i * CompiledSpecs.RECORD;
        records[at] = (int) (regex >>> 32);
        records[at + 1] = (int) regex;
        records[at + 2] = contextOf.computeIfAbsent(spec.context(), context -> {
          long text = blob.add(context);
          contexts.add((int) (text >>> 32));
          contexts.add((int) text);
          return contexts.size() / 2 - 1;
        });
        records[at + 3] = spec.line();
        records[at + 4] = translation;
        records[at + 5] = spec.fileType().ordinal() << 8 | spec.origin().ordinal();
      }
      out.writeInt(specs.size());
      out.writeInt(contexts.size() / 2);
      out.writeInt(translations.size() / 2);
      out.writeInt(blob.bytes.size());
      blob.bytes.writeTo(out);
      for (int value : records) {
        out.writeInt(value);
      }
      for (int value : contexts) {
        out.writeInt(value);
      }
      for (int value : translations) {
        out.writeInt(value);
      }
      out.writeInt(matcherSection.length);
      out.write(matcherSection);
      out.flush();
    } catch (IOException e) {
      throw new AssertionError("a memory stream does not fail", e);
    }
    CRC32 crc = new CRC32();
    crc.update(buffer.toByteArray());
    long checksum = crc.getValue();
    for (int shift = 24; shift >= 0; shift -= 8) {
      buffer.write((int) (checksum >>> shift));
    }
    return buffer.toByteArray();
  }

  /** The texts of the specs, each distinct one stored once, as (offset << 32 | length). */
  private static final class Blob {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Map<String, Long> stored = new HashMap<>();

    long add(String text) {
      return stored.computeIfAbsent(text, t -> {
        byte[] utf8 = t.getBytes(StandardCharsets.UTF_8);
        long at = (long) bytes.size() << 32 | utf8.length;
        bytes.writeBytes(utf8);
        return at;
      });
    }
  }

  /** What a compiled policy holds, read back. */
  record Decoded(Policy policy, List<SourceStamp> stamps) {}

  /** A compiled policy that cannot be used; the message says why. */
  static final class Unusable extends Exception {
    Unusable(String message) {
      super(message);
    }
  }

  static Decoded decode(Path fileContexts, byte[] bytes) throws Unusable {
    if (bytes.length < MAGIC.length + 8 || !java.util.Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new Unusable("not a relabel compiled policy");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    in.position(MAGIC.length);
    int format = in.getInt();
    if (format != FORMAT) {
      throw new Unusable("written in format " + format + ", this relabel reads format " + FORMAT
          + " (run 'relabel compile')");
    }
    try {
      String version = readString(in);
      CRC32 crc = new CRC32();
      crc.update(bytes, 0, bytes.length - 4);
      if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt()) {
        throw new Unusable("corrupt or truncated (checksum mismatch)");
      }
      if (!version.equals(relabelVersion())) {
        throw new Unusable("written by relabel " + version + ", this is relabel " + relabelVersion()
            + " (run 'relabel compile')");
      }
      List<SourceStamp> stamps = new ArrayList<>();
      int stampCount = in.getInt();
      for (int i = 0; i < stampCount; i++) {
        String suffix = readString(in);
        boolean present = in.get() != 0;
        long size = in.getLong();
        long device = in.getLong();
        long inode = in.getLong();
        long modified = in.getLong();
        long changed = in.getLong();
        boolean racy = in.get() != 0;
        byte[] digest = new byte[in.getInt()];
        in.get(digest);
        stamps.add(new SourceStamp(suffix, present, size, device, inode, modified, changed, racy, digest));
      }
      if (stamps.size() != SourceStamp.SUFFIXES.length) {
        throw new Unusable("it does not list the policy's files");
      }
      for (int i = 0; i < stamps.size(); i++) {
        if (!stamps.get(i).suffix().equals(SourceStamp.SUFFIXES[i])) {
          throw new Unusable("it does not list the policy's files");
        }
      }
      List<List<PathAlias>> aliases = new ArrayList<>(2);
      for (int list = 0; list < 2; list++) {
        int count = in.getInt();
        List<PathAlias> read = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          read.add(new PathAlias(readString(in), readString(in)));
        }
        aliases.add(read);
      }
      int specCount = in.getInt();
      int contextCount = in.getInt();
      int translationCount = in.getInt();
      int blobLength = in.getInt();
      if (specCount < 0 || contextCount < 0 || translationCount < 0 || blobLength < 0 || blobLength > in.remaining()) {
        throw new Unusable("corrupt or truncated");
      }
      int blobAt = in.position();
      in.position(blobAt + blobLength);
      int[] records = readInts(in, specCount, CompiledSpecs.RECORD);
      int[] contexts = readInts(in, contextCount, 2);
      int[] translations = readInts(in, translationCount, 2);
      int sectionLength = in.getInt();
      if (sectionLength < 0 || sectionLength != in.remaining() - 4) {
        throw new Unusable("corrupt (" + (in.remaining() - 4) + " bytes after the specs)");
      }
      ByteBuffer section = sectionLength == 0 ? null : in.slice(in.position(), sectionLength);
      Path[] files = new Path[Origin.values().length];
      for (Origin origin : Origin.values()) {
        files[origin.ordinal()] = origin == Origin.BASE ? fileContexts : PolicyLoader.sibling(fileContexts, origin.suffix());
      }
      // The records' offsets and indexes are not checked one by one here (that was a millisecond
      // of every start): the checksum has shown the file is what a relabel wrote, and only its
      // owner or root can have written it.
      CompiledSpecs specs = new CompiledSpecs(bytes, blobAt, records, contexts, translations, files, section);
      return new Decoded(new Policy(fileContexts, specs, aliases.get(0), aliases.get(1)), stamps);
    } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new Unusable("corrupt or truncated");
    }
  }

  /** {@code count} records of {@code size} ints each, in one copy. */
  private static int[] readInts(ByteBuffer in, int count, int size) {
    if ((long) count * size * 4 > in.remaining()) {
      throw new BufferUnderflowException();
    }
    int[] values = new int[count * size];
    in.asIntBuffer().get(values);
    in.position(in.position() + 4 * values.length);
    return values;
  }

  /** The version a compiled policy is written by: a compiled policy of another is not trusted. */
  static String relabelVersion() {
    String version = PolicyCache.class.getPackage().getImplementationVersion();
    return version == null ? "(unpackaged)" : version;
  }

  private static void writeString(DataOutputStream out, String value) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readString(ByteBuffer in) {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new BufferUnderflowException();
    }
    String value = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
    in.position(in.position() + length);
    return value;
  }
}
