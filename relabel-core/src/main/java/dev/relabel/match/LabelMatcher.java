package dev.relabel.match;

import dev.relabel.policy.PathBytes;
import dev.relabel.policy.FileType;
import dev.relabel.policy.Policy;
import dev.relabel.policy.Spec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Answers "which label does this path get?" exactly as libselinux 3.4's file backend
 * ({@code selabel_lookup}) does, for a {@link Policy} compiled once.
 *
 * <p>libselinux's rules, which this reproduces: the key is the path with doubled slashes and one
 * trailing slash removed, then aliased by {@code .subs} and {@code .subs_dist}. Specs are tried
 * exact ones first (no regex meta character), then expressions, each group from the last loaded
 * to the first (so {@code .local} beats {@code .homedirs} beats the base file, and a later line
 * beats an earlier one). A spec applies when its type flag admits the requested type and its stem
 * (first path component) equals the key's; it matches when {@code "^" + RE + "$"} finds a match
 * in the key (PCRE2, DOTALL). The first match wins; {@code <<none>>} means "leave it alone".
 *
 * <p>Instead of trying every spec in turn, the matcher walks a trie of each spec's required
 * literal prefix and tries only the specs the key can match, still in libselinux's order.
 *
 * <p>Immutable and thread-safe: lookups share no mutable state and take no lock.
 */
public final class LabelMatcher {
  private final Policy policy;
  /** The index in {@code policy.specs()} of the spec at each rank. */
  private final int[] specAtRank;
  /** Each rank's spec, made when a lookup first reaches it (racy but idempotent, see {@link #spec}). */
  private final CompiledSpec[] byRank;
  private final PrefixIndex index;
  /** Whether the order and index came from the policy's compiled section rather than being built. */
  private final boolean readFromSection;
  private final KeyNormalizer normalizer;
  /** The state of "/", made on first use: a walk needs it, a lookup does not. */
  private DirectoryMatch root;
  /** For directory digests only, which compare no stem; racy but idempotent initialization. */
  private volatile PrefixIndex literalIndex;

  private LabelMatcher(Policy policy) {
    this.policy = policy;
    MatcherImage stored = MatcherImage.read(policy);
    readFromSection = stored != null;
    if (stored != null) {
      specAtRank = stored.specAtRank();
      index = stored.index();
    } else {
      specAtRank = searchOrder(policy.specs());
      String[] prefixes = new String[specAtRank.length];
      for (int rank = 0; rank < prefixes.length; rank++) {
        prefixes[rank] = SpecShape.requiredPrefix(policy.specs().get(specAtRank[rank]).regex());
      }
      index = PrefixIndex.build(prefixes);
    }
    byRank = new CompiledSpec[specAtRank.length];
    normalizer = new KeyNormalizer(policy.localAliases(), policy.distAliases());
  }

  /**
   * libselinux's search order, as indexes into {@code specs}: exact specs (no meta character)
   * first, later ones before earlier ones; then expressions, likewise.
   */
  private static int[] searchOrder(List<Spec> specs) {
    int[] order = new int[specs.size()];
    boolean[] expression = new boolean[specs.size()];
    for (int i = 0; i < expression.length; i++) {
      expression[i] = SpecShape.hasMetaChars(specs.get(i).regex());
    }
    int rank = 0;
    for (int i = specs.size() - 1; i >= 0; i--) {
      if (!expression[i]) {
        order[rank++] = i;
      }
    }
    for (int i = specs.size() - 1; i >= 0; i--) {
      if (expression[i]) {
        order[rank++] = i;
      }
    }
    return order;
  }

  /**
   * Compiles a policy. Every expression in it must be valid, as the loader guarantees. A policy
   * read from a compiled policy with a {@link #compiledSection} brings its search order and prefix
   * index along, so this only reads them.
   */
  public static LabelMatcher compile(Policy policy) {
    return new LabelMatcher(policy);
  }

  /**
   * What a compiled policy of {@code policy} stores for its matcher (the search order and the
   * prefix index), so that a start reads them instead of computing them:
   * {@code PolicyCache.compile(fileContexts, LabelMatcher::compiledSection)}.
   */
  public static byte[] compiledSection(Policy policy) {
    LabelMatcher matcher = compile(policy);
    return MatcherImage.write(matcher.specAtRank, matcher.index);
  }

  /**
   * Every spec in the order of libselinux's sorted spec array (expressions in load order, then
   * exact specs in load order), which is the order {@code selabel_stats} reports unused specs in.
   */
  public List<Spec> specsInLibselinuxOrder() {
    List<Spec> order = new ArrayList<>(byRank.length);
    for (int rank = byRank.length - 1; rank >= 0; rank--) {
      order.add(spec(rank).spec);
    }
    return order;
  }

  /** The policy this matcher answers for. */
  public Policy policy() {
    return policy;
  }

  /**
   * The label for {@code path} (raw bytes, any byte but NUL) when it has type {@code type}.
   *
   * @throws IllegalArgumentException for an empty path, which libselinux refuses with EINVAL
   */
  public Label lookup(byte[] path, FileType type) {
    return lookup(PathBytes.latin1(path), type);
  }

  /** As {@link #lookup(byte[], FileType)}, for a path held one char per byte (see {@link PathBytes}). */
  public Label lookup(String latin1Path, FileType type) {
    if (latin1Path.isEmpty()) {
      throw new IllegalArgumentException("empty path");
    }
    return lookupKey(normalizer.key(latin1Path), type);
  }

  /**
   * The match state of the directory {@code path}: looking a child up through it, or entering a
   * subdirectory, only does the work the child's own name adds. It gives the same answers as
   * {@link #lookup} on the joined path.
   */
  public DirectoryMatch directory(byte[] path) {
    return directory(PathBytes.latin1(path));
  }

  /** As {@link #directory(byte[])}, for a path held one char per byte. */
  public DirectoryMatch directory(String latin1Path) {
    if (latin1Path.isEmpty()) {
      throw new IllegalArgumentException("empty path");
    }
    String clean = KeyNormalizer.clean(latin1Path);
    if (!clean.equals("/")) {
      return DirectoryMatch.of(this, clean);
    }
    // Racy but idempotent: a DirectoryMatch is immutable, its fields final.
    DirectoryMatch made = root;
    if (made == null) {
      made = DirectoryMatch.of(this, "/");
      root = made;
    }
    return made;
  }

  /**
   * The digest libselinux computes for a directory ({@code selabel_hash_all_partial_matches}, what
   * {@code setfiles -D} stores in {@code security.sehash}): SHA-1 over each spec that matches
   * {@code path} or could match a path beneath it, in search order, each as its expression, its
   * {@code mode_t} and its context, up to the first {@code <<none>>} spec. Empty where libselinux
   * has no digest: when no spec matches even partially, or when the first that does is
   * {@code <<none>>}.
   *
   * <p>A spec whose literal prefix extends the key can only be cut short by the key's end, so the
   * whole trie below the key counts unseen; along the key, each spec is asked.
   */
  public Optional<byte[]> partialMatchDigest(String latin1Path) {
    if (latin1Path.isEmpty()) {
      throw new IllegalArgumentException("empty path");
    }
    String key = normalizer.key(latin1Path);
    int[] matched = ranksAlongAndBelow(literalIndex(), key, rank -> spec(rank).matchesOrPartially(key));
    if (matched.length == 0 || spec(matched[0]).spec.isNone()) {
      return Optional.empty();
    }
    MessageDigest sha1 = sha1();
    ByteBuffer mode = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.nativeOrder());
    for (int rank : matched) {
      Spec spec = spec(rank).spec;
      if (spec.isNone()) {
        // libselinux stops at the first <<none>> and hashes what it had found before it.
        break;
      }
      sha1.update(PathBytes.fromLatin1(spec.regex()));
      sha1.update((byte) 0);
      sha1.update(mode.clear().putInt(0, spec.fileType().modeBits()).array());
      sha1.update(PathBytes.fromLatin1(spec.context()));
      sha1.update((byte) 0);
    }
    return Optional.of(sha1.digest());
  }

  /**
   * The specs libselinux's digest lookup of the directory {@code latin1Path} counts as used, for
   * {@code selabel_stats} ({@code -W} with {@code -D}): of those {@link #partialMatchDigest} goes
   * through, in search order, each that matches the path whole, up to the first {@code <<none>>}
   * that matches it at all. A directory skipped for its digest is looked up this way only, so its
   * own spec is used, the ones beneath it are not.
   */
  public List<Spec> digestLookupMatches(String latin1Path) {
    String key = normalizer.key(latin1Path);
    int[] matched = ranksAlongAndBelow(literalIndex(), key, rank -> spec(rank).matchesOrPartially(key));
    List<Spec> whole = new ArrayList<>();
    for (int rank : matched) {
      CompiledSpec compiled = spec(rank);
      if (key.startsWith(compiled.requiredPrefix) && compiled.matches(key)) {
        whole.add(compiled.spec);
      }
      if (compiled.spec.isNone()) {
        break;
      }
    }
    return whole;
  }

  /** As {@link #partialMatchDigest(String)}, for raw path bytes. */
  public Optional<byte[]> partialMatchDigest(byte[] path) {
    return partialMatchDigest(PathBytes.latin1(path));
  }

  /**
   * The ranks, in order, of every spec that may match some key strictly beneath the directory key
   * {@code key}: never one too few (see {@link CompiledSpec#mayMatchExtensionOf}).
   */
  int[] ranksThatMayMatchBeneath(String key) {
    String prefix = key.equals("/") ? "/" : key + "/";
    return ranksAlongAndBelow(index, prefix, rank -> spec(rank).mayMatchExtensionOf(prefix));
  }

  /**
   * The ranks, in order, of the specs of {@code trie} whose prefix is a prefix of {@code walked}
   * and that {@code along} keeps, and of every spec whose prefix extends {@code walked}.
   */
  private static int[] ranksAlongAndBelow(PrefixIndex trie, String walked, java.util.function.IntPredicate along) {
    IntStream.Builder ranks = IntStream.builder();
    int[] all = trie.ranks();
    int node = PrefixIndex.ROOT;
    for (int depth = 0; node != PrefixIndex.NONE; depth++) {
      long run = trie.rankRun(node);
      for (int at = (int) (run >>> 32); at < (int) run; at++) {
        if (along.test(all[at])) {
          ranks.add(all[at]);
        }
      }
      if (depth == walked.length()) {
        for (int rank : trie.below(node)) {
          ranks.add(rank);
        }
        break;
      }
      node = trie.child(node, walked.charAt(depth));
    }
    return ranks.build().sorted().toArray();
  }

  /** The trie over the specs' literal prefixes, without the stem rule; built on first use. */
  private PrefixIndex literalIndex() {
    PrefixIndex built = literalIndex;
    if (built == null) {
      String[] prefixes = new String[specAtRank.length];
      for (int rank = 0; rank < prefixes.length; rank++) {
        prefixes[rank] = SpecShape.literalPrefix(policy.specs().get(specAtRank[rank]).regex());
      }
      built = PrefixIndex.build(prefixes);
      literalIndex = built;
    }
    return built;
  }

  private static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-1", e);
    }
  }

  Label lookupKey(String key, FileType type) {
    long[] runs = new long[index.maxLists()];
    int count = 0;
    if (index.hasRanks(PrefixIndex.ROOT)) {
      runs[count++] = index.rankRun(PrefixIndex.ROOT);
    }
    count = index.collect(PrefixIndex.ROOT, key, 0, runs, count);
    return RankMerge.first(this, null, null, null, index.ranks(), runs, count, key, 0, type);
  }

  PrefixIndex index() {
    return index;
  }

  /** Whether the search order and index were read from a compiled policy (tests). */
  boolean readFromSection() {
    return readFromSection;
  }

  /** The index in the policy's specs of the spec at each rank (tests). */
  int[] specAtRank() {
    return specAtRank.clone();
  }

  /**
   * The spec at {@code rank}, made on first use: a start that looks up one path reaches a few
   * dozen specs. Racy but idempotent, as String's hash: two threads may both make it, either
   * result is equal, and a CompiledSpec publishes its state through final fields (JLS 17.5), so
   * the lookup path takes no lock and pays no fence.
   */
  CompiledSpec spec(int rank) {
    CompiledSpec spec = byRank[rank];
    if (spec == null) {
      int at = specAtRank[rank];
      spec = new CompiledSpec(rank, policy.specs().get(at), policy.compiledExpression(at));
      byRank[rank] = spec;
    }
    return spec;
  }

  int specCount() {
    return byRank.length;
  }

  KeyNormalizer normalizer() {
    return normalizer;
  }
}
