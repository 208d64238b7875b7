package dev.relabel.policy;

import dev.relabel.regex.PcrePattern;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;

/**
 * The specs of a compiled policy ({@link PolicyCache}), decoded one at a time when first asked for:
 * a start that looks up one path reaches a few dozen of the thousands of specs, and decoding all
 * of them was most of its policy load. An unmodifiable list; each spec and expression is made once
 * (racy but idempotent, as String's hash: both results are equal and immutable, and published
 * through final fields), so lookups on any number of threads take no lock.
 *
 * <p>What it reads: the whole file's bytes, as {@link PolicyCache} checked them (whole and written
 * by this relabel),
 * {@value #RECORD} ints a spec ({@code regexOffset, regexLength, context, line, translation,
 * fileType << 8 | origin}) into a blob of the specs' expressions, contexts and translations, and
 * two ints a context and a translation ({@code offset, length}).
 */
final class CompiledSpecs extends AbstractList<Spec> implements RandomAccess {
  /** Ints per spec record. */
  static final int RECORD = 6;

  private static final FileType[] TYPES = FileType.values();
  private static final Origin[] ORIGINS = Origin.values();

  private final byte[] bytes;
  private final int blobAt;
  private final int[] records;
  private final int[] contexts;
  private final int[] translations;
  /** Each context, made when a spec that says it is first decoded. */
  private final String[] contextTexts;
  /** The file each {@link Origin} stands for. */
  private final Path[] files;
  private final ByteBuffer matcherSection;
  private final Spec[] specs;
  private final PcrePattern[] patterns;
  private Map<String, PcrePattern> expressions;

  CompiledSpecs(byte[] bytes, int blobAt, int[] records, int[] contexts, int[] translations, Path[] files,
      ByteBuffer matcherSection) {
    this.bytes = bytes;
    this.blobAt = blobAt;
    this.records = records;
    this.contexts = contexts;
    this.translations = translations;
    this.contextTexts = new String[contexts.length / 2];
    this.files = files;
    this.matcherSection = matcherSection;
    this.specs = new Spec[records.length / RECORD];
    this.patterns = new PcrePattern[translations.length / 2];
  }

  @Override
  public Spec get(int index) {
    Spec spec = specs[index];
    if (spec == null) {
      int at = index * RECORD;
      int typeAndOrigin = records[at + 5];
      spec = new Spec(regex(index), TYPES[typeAndOrigin >>> 8], context(records[at + 2]), files[typeAndOrigin & 0xff],
          records[at + 3], ORIGINS[typeAndOrigin & 0xff]);
      specs[index] = spec;
    }
    return spec;
  }

  @Override
  public int size() {
    return specs.length;
  }

  /** The expression spec {@code index} was compiled to, or null when it needed none. */
  PcrePattern expression(int index) {
    int translation = records[index * RECORD + 4];
    if (translation < 0) {
      return null;
    }
    PcrePattern pattern = patterns[translation];
    if (pattern == null) {
      pattern = PcrePattern.ofTranslation("^" + regex(index) + "$",
          text(translations[2 * translation], translations[2 * translation + 1]));
      patterns[translation] = pattern;
    }
    return pattern;
  }

  /** Every compiled expression by the expression as written, as a text load's map holds them. */
  Map<String, PcrePattern> expressions() {
    Map<String, PcrePattern> all = expressions;
    if (all == null) {
      Map<String, PcrePattern> collected = new HashMap<>();
      for (int i = 0; i < specs.length; i++) {
        PcrePattern pattern = expression(i);
        if (pattern != null) {
          collected.putIfAbsent(get(i).regex(), pattern);
        }
      }
      all = Map.copyOf(collected);
      expressions = all;
    }
    return all;
  }

  /** What the matcher stored, as a buffer of the caller's own. */
  Optional<ByteBuffer> matcherSection() {
    return matcherSection == null ? Optional.empty() : Optional.of(matcherSection.asReadOnlyBuffer());
  }

  private String context(int index) {
    String context = contextTexts[index];
    if (context == null) {
      // Interned by hand: the specs that share a context share one String, as a text load's do.
      context = text(contexts[2 * index], contexts[2 * index + 1]);
      contextTexts[index] = context;
    }
    return context;
  }

  private String regex(int index) {
    return text(records[index * RECORD], records[index * RECORD + 1]);
  }

  private String text(int offset, int length) {
    return new String(bytes, blobAt + offset, length, StandardCharsets.UTF_8);
  }
}
