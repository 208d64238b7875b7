package dev.relabel.regex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.fixtures.oracle.Pcre2;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link PcrePattern} against the system's PCRE2 (libpcre2-8, through {@link Pcre2}), compiled and
 * run as libselinux runs it: each pattern raw and wrapped as {@code "^" + p + "$"}, matched
 * unanchored on byte strings. For every pattern PCRE2 compiles exactly when we do, except for
 * features we refuse as "not supported by relabel"; for every pattern both compile, every subject
 * matches in both or in neither.
 *
 * <p>Three sources of patterns: a hand-written table of the places where the dialects (or PCRE2
 * 10.42's optimisations) part ways, each tried on its own subjects, common ones, all 256 one-byte
 * strings for short patterns and random ones; the patterns relabel refuses; and a seeded random
 * grammar of the same constructs with subjects biased toward the pattern's bytes and '/', '\n',
 * '\r', NEL, NBSP and é.
 */
class PcreDifferentialTest {
  /** -Dpcre.seed, -Dpcre.patterns and -Dpcre.depth run the random comparison at other settings. */
  private static final long SEED = Long.decode(System.getProperty("pcre.seed", "0x5e1abe1"));
  private static final int RANDOM_PATTERNS = Integer.getInteger("pcre.patterns", 20_000);
  private static final int SUBJECTS_PER_RANDOM_PATTERN = 12;
  private static final int MAX_GROUP_DEPTH = Integer.getInteger("pcre.depth", 2);

  @BeforeAll
  static void reference() {
    String missing = Pcre2.missing();
    if (missing != null) {
      if (Oracles.inCi()) {
        fail("CI=true and the PCRE2 reference is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
  }

  // ---- The hand-written table ----

  /** Bytes that tell the dialects apart: newlines, NEL, NBSP, é/É, NUL, VT. */
  private static final List<String> COMMON_SUBJECTS = List.of("", "a", "A", "b", "ab", "aB", "ba", "abc", "aaa", "/",
      "/a", "a/", "\n", "a\n", "\na", "a\n\n", "\r", "a\r", "\r\n", "a\r\n", "\u0085", "a\u0085", "\u00a0",
      "\u00e9", "\u00c9", "a\u00e9", "\u00e9a", "_", "0", "1", "9", " ", "\t", "\u000b", "\f", "\u0000", "{", "}",
      "a{", "[", "]", "-", "&", "&&", ":", "^", "$", "\\", "(", ")", "/usr/bin/a", "/usr/lib/x.so");

  private static final List<String> ALL_BYTES = allBytes();

  private static List<String> allBytes() {
    List<String> bytes = new ArrayList<>();
    for (int b = 0; b < 256; b++) {
      bytes.add(String.valueOf((char) b));
    }
    return bytes;
  }

  private record Case(String pattern, List<String> subjects) {}

  private static Case c(String pattern, String... subjects) {
    return new Case(pattern, List.of(subjects));
  }

  private static final List<Case> TABLE = List.of(
      // Line terminators: PCRE2's newline is LF only; $ also matches before a final LF.
      c("a$", "a", "a\n", "a\r", "a\r\n", "a\u0085", "a\n\n"),
      c("a\\Z", "a", "a\n", "a\r", "a\r\n", "a\u0085", "a\n\n"),
      c("a\\z", "a", "a\n"),
      c("^a", "a", "\na", "ba"),
      c("\\Aa", "a", "\na"),
      c("(?m)^a", "a", "\na", "\ra", "\u0085a", "b\na"),
      c("(?m)a$", "a", "a\nb", "a\rb", "a\u0085b", "a\n\n"),
      c("(?m)^$", "", "\n", "a\n", "a\n\n", "\n\n", "\r"),
      c("(?m)^", "\n"),
      c("^$", "", "\n", "\n\n", "\r"),
      c("$\\n", "\n", "a\n"),
      c("a$b", "a\nb"),
      c("(?m)a$\\n^b", "a\nb"),
      c("\\Ga", "a", "ba"),
      c("a\\G", "a"),
      c("(?<=\\G)a", "a", "ba"),
      // '.' and newlines: DOTALL by default, (?-s) excludes LF only.
      c(".", "\n", "\r", "\u0085"),
      c("(?-s).", "\n", "\r", "\u0085", "\n\n"),
      c("(?-s:a.b)c.d", "a\nbc\nd", "axbc\nd", "a\nbcxd"),
      c("a(?-s).|b.", "a\n", "b\n", "ax"),
      c("(a(?-s).|b.)", "a\n", "b\n"),
      c("(?s-s).", "\n", "x"),
      c("(?^).", "\n", "x"),
      c("(?^i)a", "A"),
      c("(?i)(?^)a", "A", "a"),
      c("\\N", "\n", "\r", "x"),
      c("\\N{2}", "ab", "a\n"),
      c("\\N{2,}", "ab", "a"),
      c("\\N{,2}"),
      c("\\N{x}"),
      c("\\N{U+41}"),
      c("\\C", "\u00e9", "\n"),
      c("\\R", "\n", "\r", "\r\n", "\u0085", "\u000b", "\f", "x"),
      c("\\R\\n", "\r\n", "\n\n"),
      c("a\\R{2}b", "a\r\nb", "a\r\n\nb", "a\n\nb"),
      c("\\X", "\r\n", "a"),
      c("^\\X$", "\r\n", "a", "\u00e9", "a\u00e9"),
      c("^\\X\\n$", "\r\n"),
      c("^\\X{2}$", "\r\n", "ab", "\r\n\r\n", "\n\r"),
      c("\\v", "\n", "\u000b", "\f", "\r", "\u0085", "\u00a0", " "),
      c("\\h", " ", "\t", "\u00a0", "\u0085", "\n"),
      c("\\s", " ", "\t", "\n", "\u000b", "\f", "\r", "\u0085", "\u00a0"),
      // POSIX classes.
      c("[[:alpha:]]"), c("[[:^alpha:]]"), c("[[:digit:]]"), c("[[:^digit:]]"), c("[[:alnum:]]"), c("[[:word:]]"),
      c("[[:^word:]]"), c("[[:space:]]"), c("[[:blank:]]"), c("[[:cntrl:]]"), c("[[:graph:]]"), c("[[:print:]]"),
      c("[[:punct:]]"), c("[[:upper:]]"), c("[[:lower:]]"), c("[[:xdigit:]]"), c("[[:ascii:]]"),
      c("(?i)[[:upper:]]"), c("(?i)[[:lower:]]"), c("(?i)[[:^lower:]]"), c("(?i)[^[:upper:]]"),
      c("[[:alpha:][:digit:]]"), c("[^[:alpha:]]"), c("[a[:digit:]b]"), c("[[:digit:]-]"), c("[-[:digit:]]"),
      c("[[:digit:]-z]"), c("[a-[:digit:]]"), c("[[:foo:]]"), c("[[:alpha:]"), c("[[:alpha]]"), c("[[:alpha:"),
      c("[:alpha:]"), c("[.a.]"), c("[=a=]"), c("[[.a.]]"), c("[[=a=]]"), c("[[:a\\]:]]"), c("[[:]]"),
      c("[[:<:]]a", "a", "ba", " a"), c("a[[:>:]]", "a", "ab", "a "), c("[[:<:]]*a", "ba"), c("[[:<:]]"),
      c("x[:a", "x:", "xa"), c("[:a", ":"),
      // '[', '&&', ']' and '-' inside classes.
      c("[[]", "["), c("[a[]", "["), c("[]a]", "]", "a"), c("[^]a]", "]", "b"), c("[]]", "]"), c("[]", "]"),
      c("[^]", "^"), c("[]-a]", "^", "b"), c("[a&&b]", "&", "a", "b"), c("[a&&[b]]", "&", "]", "a]", "b]"),
      c("[&&]", "&"), c("[\\]]", "]"), c("[\\[]", "["), c("[a-]", "-"), c("[-a]", "-"), c("[a-c-e]", "-", "d"),
      c("[--z]", "-", "a"), c("[%--]", "+", "-"), c("[z-a]"), c("[a-\\d]"), c("[\\d-z]"), c("[\\d-]", "-"),
      c("[\\w-\\d]"), c("[a-\\x{7a}]", "m"), c("[\\x41-\\x43]", "B"), c("[\\Q]\\E]", "]"), c("[\\Qa-z\\E]", "-", "m"),
      c("[\\Qa\\E-z]", "m"), c("[a-\\Qz\\E]", "m"), c("[\\Q\\E]"), c("[\\Q\\E]]", "]"), c("[\\E]]", "]"),
      c("[^\\E]]", "]", "a"), c("[\\E^a]", "a", "b"), c("[^^]", "^", "a"), c("[\\Qab"), c("[a\\E-z]", "m"),
      c("[\\b]", "\b", "b"), c("[\\B]"), c("[\\R]"), c("[\\X]"), c("[\\N]"), c("[\\A]"), c("[\\z]"), c("[\\K]"),
      c("[\\g1]"), c("[\\1]", "\u0001", "1"), c("[\\8]", "8"), c("[\\9]", "9"), c("[\\08]", "\u0000", "8"),
      c("[\\101]", "A"), c("[\\400]"), c("[\\e]", "\u001b"), c("[\\y]"), c("[\\u]"), c("[\\_]", "_"),
      c("[\\d\\s]"), c("[^\\d\\s]"), c("[\\W\\d]"), c("[^\\W\\d]"), c("[\\h]"), c("[\\V]"), c("[\\H\\h]"),
      c("[^\\x00-\\xff]"), c("[\\x00-\\xff]"), c("[a"), c("["), c("[\\"), c("]", "]"), c("}", "}"),
      // '{' that is not a quantifier.
      c("a{", "a{"), c("a{,3}", "a{,3}", "aaa"), c("a{1,2}", "a", "aa"), c("x{1,2}", "x"), c("a{2}", "aa"),
      c("a{2,}", "aaa"), c("a{0}b", "b"), c("a{}", "a{}"), c("a{,}", "a{,}"), c("a{1,2,3}", "a{1,2,3}"),
      c("a{1, 2}", "a{1, 2}"), c("a{ 1}", "a{ 1}"), c("a{1", "a{1"), c("{", "{"), c("{2}"), c("^{2}"),
      c("a{2,1}"), c("a{65535}"), c("a{65536}"), c("a{99999999999}"), c("a{1,65536}"), c("a{99999", "a{99999"),
      c("({)", "{"), c("a{2}{3}"), c("a{2}?", "aa"), c("a{2}+", "aa"), c("a{1,3}?b", "aab"), c("(?:a{2})*", "aaa"),
      // Octal, backreferences and their numbering.
      c("\\0", "\u0000"), c("\\00", "\u0000"), c("\\012", "\n"), c("\\0123", "\n3"), c("\\101", "A"),
      c("\\18", "\u00018"), c("\\1"), c("(a)\\1", "aa", "a"), c("\\1(a)", "a"), c("(a)|\\1b", "b"),
      c("\\8"), c("\\9"), c("(a)\\8"), c("\\81"), c("\\400"), c("\\377", "\u00ff"), c("\\12", "\n"),
      c("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", "abcdefghijj", "abcdefghij\b"),
      c("(a)(b)(c)(d)(e)(f)(g)(h)(i)\\10(j)", "abcdefghi\bj"),
      c("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\11", "abcdefghij\t"),
      c("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\100", "abcdefghij@", "abcdefghija0"),
      c("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)\\11", "abcdefghijkk"),
      c("(a)\\10", "a\b"), c("(a)\\1000", "a@0"), c("\\1234567", "S4567"), c("\\99999999"), c("\\999999999", "999999999"),
      c("\\99999"), c("\\65535"), c("\\9999999999", "9999999999"), c("\\214748364", "\u008c748364"),
      c("\\1234567890", "S4567890"),
      c("(a)\\g1", "aa"), c("(a)\\g{1}", "aa"), c("(a)\\g{-1}", "aa"), c("(a)\\g-1", "aa"), c("(a)(b)\\g{-2}", "aba"),
      c("\\g{+1}(a)", "a"), c("\\g+1(a)", "a"), c("(a)\\g{0}"), c("(a)\\g0"), c("(a)\\g{-2}"), c("(a)\\g{+0}"),
      c("(a)\\g"), c("(a)\\gx"), c("(a)\\g{1"), c("(?i)(a)\\1", "aA", "Aa"), c("(?i)(\u00e9)\\1", "\u00e9\u00c9"),
      c("(a)(?i)\\1", "aA"), c("(a)(?i:\\1)b", "aAb", "aaB"), c("(a|b)*\\1", "abb", "aba"),
      c("(a)|b\\1", "b"), c("(a)?b\\1", "b", "aba"), c("(a\\1)", "a"), c("(a|\\1b)+", "aab", "ab"),
      // Captures after empty or failed iterations.
      c("(a|)*\\1b", "aab", "b", "ab"), c("(a?)*\\1", "aa"), c("(a*)*\\1b", "aab"), c("(a*)+\\1b", "aab", "b"),
      c("(?:(a)|b)*\\1", "aba", "ab", "ba"), c("(a|b|)+\\1", "abb", "ab"), c("((a)|b)+\\2", "aba", "abb"),
      c("(?:(a)|(b))+\\1\\2", "abab", "baab"), c("(a)*+b", "aab"), c("(?:(a)b|ac)+\\1", "abaca"),
      c("(?>(a)|b)\\1"), c("(?=(a))a\\1", "aa"), c("(?!(a)b)\\1"), c("(?!(a)\\1)a", "aa", "ab"),
      c("(?=(a)\\1)", "aa"), c("(a)(?=\\1)", "aa"), c("(?:(a)|b)(?(1)x)"), c("(?:(?=(a))x|a)\\1", "aa", "ax"),
      // Named groups.
      c("(?<a_b>x)\\k<a_b>", "xx"), c("(?'n_1'x)\\k'n_1'", "xx"), c("(?P<n>x)(?P=n)", "xx"),
      c("(?<n>x)\\k{n}", "xx"), c("(?<n>x)\\g{n}", "xx"), c("\\k<n>(?<n>x)", "x"), c("(?<n>x)(?<n>y)"),
      c("(?<1n>x)"), c("(?<>x)"), c("(?<n-x>x)"), c("(?<n"), c("(?<abcdefghijabcdefghijabcdefghij12>x)", "x"),
      c("(?<abcdefghijabcdefghijabcdefghij123>x)"), c("(?<_>x)\\k<_>", "xx"), c("(?<n>x)\\k<m>"),
      c("(?<n>x)\\k"), c("(?<n>x)\\kn"), c("(?<\u00e9>x)"), c("(?<n>a)(?<m>b)\\2\\k<n>", "abba"),
      c("(?i)(?<n>a)\\k<n>", "aA"),
      // Hex, octal braces and control escapes.
      c("\\x9", "\t"), c("\\x41", "A"), c("\\x411", "A1"), c("\\x{41}", "A"), c("\\x{0041}", "A"),
      c("\\x{e9}", "\u00e9"), c("\\xe9", "\u00e9"), c("\\x{100}"), c("\\x{}"), c("\\x{4g}"), c("\\x{41"),
      c("\\x", "\u0000"), c("\\xg", "\u0000g"), c("\\x{ 41}"), c("\\o{101}", "A"), c("\\o{}"), c("\\o{8}"),
      c("\\o{400}"), c("\\o"), c("\\o101"), c("\\cA", "\u0001"), c("\\ca", "\u0001"), c("\\c?", "\u007f"),
      c("\\c\\", "\u001c"), c("\\c{", ";"), c("\\c"), c("\\c\u00e9"), c("\\c\n"), c("\\e", "\u001b"),
      c("\\a", "\u0007"), c("\\f", "\f"), c("\\t", "\t"),
      // \Q..\E.
      c("\\Qa.b\\E", "a.b", "axb"), c("\\Q(a\\E", "(a"), c("\\Qa", "a"), c("\\Q", ""), c("\\E", ""),
      c("a\\Q\\E*", "aaa"), c("\\Q\\E*"), c("^\\Q\\E*"), c("\\Qab\\E*", "abbb"), c("a*\\Q\\E?", "aa"),
      c("a*\\E?", "aa"), c("a*\\Q?\\E", "a?"), c("\\Q\\Ea", "a"), c("\\Q\\\\E", "\\"), c("\\Q$\\E", "$"),
      c("\\Qa|b\\E", "a|b", "a"), c("a(?#x)*", "aa"), c("a*(?#x)?", "aa"), c("(?#x)*"), c("a(?#x"),
      c("(?#x)a", "a"), c("a{2}(?#x){3}"), c("(?i)\\Qab\\E", "AB"),
      // \b and \B on bytes >= 0x80: Java 17's \b is Unicode-aware.
      c("\\b", "\u00e9", "a", "", " "), c("a\\b", "a\u00e9", "ab", "a"), c("\u00e9\\b", "\u00e9", "\u00e9a"),
      c("\\B", "\u00e9", "a", ""), c("a\\B", "a\u00e9", "ab"), c("\\b\u00e9", "a\u00e9", "\u00e9"),
      c("\\b_", "_", "a_"), c("\\b0", "0", "a0"), c("(?<=\\b)a", "a"), c("\\b*"), c("\\B+"),
      // \s \w \d \h \v on bytes 0x80-0xFF.
      c("\\w"), c("\\W"), c("\\d"), c("\\D"), c("\\s"), c("\\S"), c("\\h"), c("\\H"), c("\\v"), c("\\V"),
      c("(?i)\\w"), c("(?i)\\W"),
      // Case-insensitive matching with bytes >= 0x80: PCRE2 folds ASCII letters only.
      c("(?i)\u00e9", "\u00e9", "\u00c9"), c("(?i)\u00c9", "\u00e9"), c("(?i)a", "A"), c("(?i)[a-z]", "Q", "\u00e9"),
      c("(?i)[\u00e0-\u00ff]", "\u00c9"), c("(?i)[^a]", "A", "b"), c("(?i)[Z-a]", "z", "A", "_"),
      c("(?i)\\x41", "a"), c("(?i)[\\x41]", "a"), c("(?i)\\101", "a"), c("(?i)\u00b5", "\u00b5"),
      c("(?i)\u00ff", "\u00ff"), c("(?i)k", "K"), c("(?i)s", "S"), c("(?i:a)b", "Ab", "AB"),
      c("a(?i)b", "aB", "AB"), c("(a(?i)b|c)", "C", "aB"), c("(?i)(a|(?-i)b)c", "bC", "Bc"), c("((?i)a)b", "AB"),
      c("(?i)\\p{Lu}", "a", "A"), c("(?i)\\p{Ll}", "A"), c("(?i)[\\p{Lu}]", "a"), c("(?i)[^\\p{Lu}]", "a", "A"),
      c("(?i)\\P{Lu}", "a"), c("(?-i)a", "A"), c("(?i-i)a", "A"),
      // Unicode properties on bytes.
      c("\\pL"), c("\\pl"), c("\\p{L&}"), c("\\p{Lc}"), c("\\p{LC}"), c("\\p{l_&}"), c("\\p{ L }"), c("\\p{^L}"),
      c("\\P{^L}"), c("\\p{Any}"), c("\\P{Any}"), c("\\p{Xan}"), c("\\p{Xps}"), c("\\p{Xsp}"), c("\\p{Xwd}"),
      c("\\p{Xuc}"), c("\\p{IsL}"), c("\\p{Foo}"), c("\\p"), c("\\p{"), c("\\p{L"), c("\\p1"), c("\\p{}"),
      c("[\\p{N}a]"), c("[^\\p{N}\\p{P}]"), c("[\\p{L}-z]"), c("[a-\\p{L}]"),
      // Lookbehind: fixed length per branch.
      c("(?<=a)b", "ab", "b"), c("(?<!a)b", "ab", "cb"), c("(?<=a|bc)d", "ad", "bcd", "cd"), c("(?<=a+)b"),
      c("(?<=(a|bc))d"), c("(?<=(a|b))c", "ac"), c("(?<=a{2})b", "aab", "ab"), c("(?<=a{1,2})b"),
      c("(?<=a?)b"), c("(?<=\\R)a"), c("(?<=\\X)a"), c("(?<=\\N)a", "ba"), c("(?<=\\C)a", "ba"), c("(?<=.)a", "a"),
      c("(?<=[ab]{3})c", "abac"), c("(?<=(?:ab|cd){2})e", "abcde"), c("(?<=a(?=b)b)c", "abc"), c("(?<=^)a", "a"),
      c("(?<=$)"), c("(?<=\\b)"), c("(?<=a|)b", "b"), c("(?<=(?<=a)b)c", "abc"), c("(?<=a(*ACCEPT))"),
      c("(?<=x{0})a", "a"), c("(?<=(a){2})b", "aab"), c("(?<=(?>ab))c", "abc"), c("(?<=a\\b)", "a"),
      c("(?<=a)*b", "b"), c("(?<=a){2}b", "ab"), c("(?<=(?i)a)b", "Ab"), c("(?<=a(?i)b)c", "aBc"),
      c("(?<=\\d\\w\\s)", "1a "), c("(?<!(a)|(ba))b", "ab", "bab", "cb"), c("(?<=a|bc|d)x", "bcx", "dx"),
      c("(?<=(?:a|bc))"), c("(?<=(?:)*b)"), c("(?<=(?:){1,3}b)"), c("(?<=(?:a{0}){1,2}b)"), c("(?<=(?=a)*b)", "b"),
      c("(?<=(?=a){1,2}b)", "b"), c("(?<=(?<=a){2}b)", "ab"), c("(?<=(?<=a){0,1}b)"), c("(?<!(?<=)*)"),
      c("(?<=(?<=a)?b)"), c("(?<=\\k<n>)(?<n>a)"), c("(?:x){0}a", "a"), c("(?:x|y){1}a", "ya"), c("(?!){0}?a", "a"), c("(?<=(?:(?=a)){2,3}b)"), c("(?<=(?:a|b)*)"), c("(?<=(a|bc)?)"),
      c("(?<=(?:a|bc){0}d)"), c("(?<=(?:ab|cd){2}?)e", "abcde"), c("(?<=(?:ab|cd){2}+)e", "cdabe"),
      c("(?<=(?:a|b){2}(?:c|d))e", "abce", "bade"), c("(?<=(?:(a)|b){2})x", "abx"),
      c("(?<=[[:<:]]a)", "a"), c("(?<=[[:<:]]*a)", "a"),
      // PCRE2 10.42's auto-possessification misjudges these pairs of types (see CharType).
      c("\\S+\\h", "a\u00a0", "a ", "a\u00a0\u00a0"), c("\\S+\\R", "a\u0085", "a\n"), c("\\S+\\v", "a\u0085"),
      c("\\N+\\R", "a\r", "a\n", "a\r\r"), c("(?-s).+\\R", "a\r", "a\u0085"), c("(?-s).+?\\R", "a\r"),
      c("\\R+\\s", "\n\n", "\r\n "), c("\\R+\\N", "\r\r", "\n\r"), c("\\R+(?-s).", "\r\r"),
      c("\\h+\\S", " \u00a0", "\u00a0\u00a0"), c("\\v+\\S", "\n\u0085"), c("\\S+?\\h", "a\u00a0"),
      c("\\S{1,3}\\h", "a\u00a0"), c("\\S{2,}\\h", "ab\u00a0"), c("\\S*\\h+", "a\u00a0\u00a0"),
      c("\\S*(?i)\\h", "a\u00a0"), c("\\S*(?#x)\\h", "a\u00a0"), c("\\S*\\Q\\E\\h", "a\u00a0"),
      c("\\S*[\\h]", "a\u00a0"), c("\\S+a?\\h", "a\u00a0"), c("\\S+a\\h", "aa\u00a0"), c("\\S++\\h", "a\u00a0"),
      c("\\S+\\b\\h"), c("\\S+$\\h"), c("\\S+(?=\\h)", "a\u00a0"), c("\\S{2}\\h", "ab\u00a0"),
      c("\\S+\\h{2}", "a\u00a0\u00a0"), c("\\s+\\S", " \u00a0"), c("\\d+\\h", "1\u00a0"),
      // Repeats of groups that can match empty: PCRE2 copies the group, Java loops.
      c("^(?:\\A|\\C){3}\\z", "\u00cc", "ab", ""), c("(?:\\A|.){3}\\z", "a"), c("(?:\\A|.){0,3}\\z", "ab", "abcd"),
      c("(?:\\A|.){2,}\\z", "a", "abc"), c("(?:\\A|.){2,}?\\z", "a"), c("(?:\\A|.){2,3}?x", "ax", "abx"),
      c("(?:\\A|.){2,3}+\\z", "a", "ab"), c("(a|\\b){2}b", "ab"), c("(?:a?){3}b", "ab", "aaab"), c("(?:|a){2,4}b", "aab"),
      c("(?:\\b|a){1,3}x", "ax"), c("(?<=(?:\\b){2}a)b", "ab"),
      // A first code unit asserted by a leading lookahead: only wrapped, where ^ comes first.
      c("x(?=A)y?A", "xA"), c("(?=A)A", "A"), c("(?=a)*b", "b"),
      // Possessive repeats of groups backtrack inside the repeat in PCRE2, not in Java.
      c("(?:.+){2}+", "ab", "a"), c("(?:a|ab){2}+c", "aabc", "ababc"), c("(?:a+)*+b", "aab"), c("(.+)++x", "abx"),
      c("(?:a|b)?+b", "b", "ab"), c("\\R++\\n", "\r\n\n"), c("(?>a+)++b", "aab"), c("(?<=[[:alpha:]])1", "a1"), c("(?<=\\x{41})", "A"),
      // Lazy and possessive quantifiers, atomic groups.
      c("a*?b", "aab"), c("a+?", "a"), c("a??b", "ab"), c("a*+a", "aaa"), c("a++b", "aab"), c("a?+a", "a"),
      c("(?>a+)a", "aa"), c("(?>a|ab)c", "abc", "ac"), c("a{1,3}+a", "aaa", "aaaa"), c("a*??"), c("a*+?"),
      c("a***"), c("a*?+"), c("a+++"), c("(?:a|ab)++c", "abc"),
      // Top-level alternation under libselinux's "^...$".
      c("a|b", "a", "b", "ab", "xa"), c("a|", "", "x"), c("|a", "b"), c("a|b$", "xb", "ax"), c("^a|b", "xb"),
      c("/usr(/.*)?", "/usr", "/usr/lib", "/usrx"), c("/a|/b(/.*)?", "/b/c", "/a/c"), c("(a|b)|c", "c"),
      // Groups, options and things PCRE2 rejects.
      c("("), c(")"), c("a)"), c("(a"), c("(a))"), c("((a)"), c("(?"), c("(?:"), c("(?i"), c("(?z)"), c("(?-)"),
      c("(?)"), c("(?i-)a", "A"), c("(?--i)"), c("(?^-i)"), c("(?i)*"), c("a(?i)*"), c("a(?)*"), c("(?:)", ""),
      c("()", ""), c("(|)", ""), c("(?:)*"), c("()*", ""), c("(?=a)*b", "b"), c("(?=a)+a", "a"), c("(?!a){2}b", "b"),
      c("(?=a){0}b", "b"), c("(?=(a))*\\1"), c("(?P"), c("(?Px)"), c("(?<"), c("(?'"), c("(?'n"), c("(?<=a"),
      c("*"), c("+a"), c("?"), c("a**"), c("^*"), c("$*"), c("\\A*"), c("\\z*"), c("\\Z*"), c("\\G*"), c("$?"),
      c("(*"), c("(*)"), c("\\"), c("a\\"), c("\\y"), c("\\u"), c("\\U"), c("\\L"), c("\\l"), c("\\F"), c("\\i"),
      c("\\j"), c("\\m"), c("\\q"), c("\\_", "_"), c("\\/", "/"), c("\\\u00e9", "\u00e9"), c("\\-", "-"),
      c("\\#", "#"), c("\\ ", " "), c("\\:", ":"), c("\\<", "<"), c("\\>", ">"), c("\\%", "%"), c("#x", "#x"),
      c(" a", " a"), c("a\u0000b", "a\u0000b"), c("\u00e9+", "\u00e9\u00e9"), c("\u00e9{2}", "\u00e9\u00e9"),
      c("[\u00e9-\u00ff]", "\u00f0"), c("a.c", "abc", "a\u0000c"), c("\\.", ".", "a"), c("a\\.b", "a.b"),
      // Limits: nesting, compiled size.
      c("(".repeat(250) + "a" + ")".repeat(250), "a"), c("(".repeat(251) + "a" + ")".repeat(251)),
      c("(?:".repeat(251) + "a" + ")".repeat(251)), c("(?=".repeat(251) + "a" + ")".repeat(251)),
      c("(?:ab){7000}"), c("(?:ab){1000}", "ab".repeat(1000)), c("a{65535}"), c("[ab]{65535}"),
      c("(?:a|b){10000}"), c("x".repeat(5000), "x".repeat(5000)));

  /**
   * Patterns PCRE2 compiles and relabel refuses because java.util.regex cannot express them, or
   * cannot express what PCRE2 10.42 makes of them: each must be refused with "not supported by
   * relabel", never compiled into something else.
   */
  private static final List<String> REFUSED = List.of("(?x)a b", "(?n)(a)", "(?J)(?<n>a)(?<n>b)", "(?U)a*",
      "(?xx)a", "(?i:(?x)a)", "(?|(a)|(b))", "(a)(?(1)b|c)", "(a)(?(1)b)", "(?(?=a)a|b)", "(?R)", "a(?R)?",
      "(a)(?1)", "(a)(?-1)", "(?+1)(a)", "(?&n)(?<n>a)", "(?<n>a)(?P>n)", "(a)\\g<1>", "(a)\\g'1'",
      "(?C)a", "(?C1)a", "(*ACCEPT)", "(*FAIL)", "(*UTF)a", "(*CR)a", "(*pla:a)", "(*atomic:a)", "a\\K",
      "(*ACCEPT:x)", "(*COMMIT:x)", "(*F:x)", "(*MARK:a)", "(*:a)", "(*THEN)", "(*SKIP:)", "(*PRUNE:y)", "(*sr:a)",
      "(*positive_lookahead:a)", "(*non_atomic_positive_lookbehind:a)", "(*UTF)(*UCP)a", "(*LIMIT_MATCH=10)a",
      "(*LIMIT_MATCH=4294967289)a", "(*LIMIT_DEPTH=00000000001)a", "(*UTF8)a", "(*NUL)a", "(*ACCEPT)?",
      "(?C255)a", "(?C0000255)a", "(?C\"x\"\"y\")a", "(?C{x})a", "(?C`x`)a", "(?C'x')a", "(?C^x^)a", "(?C%x%)a",
      "(?C#x#)a", "(?C$x$)a", "(?&n)(?<n>a)", "(?&_n)(?<_n>a)", "(?&" + "a".repeat(32) + ")(?<" + "a".repeat(32) + ">b)",
      "(?0)",
      "(?*a)", "(?<*a)", "\\p{Latin}", "\\p{Greek}", "\\p{Common}", "[\\p{Latin}]", "\\p{sc:Latin}",
      "(?<=(a)\\1)", "(?<=(?<n>a)\\k<n>)", "(?<=(a))(?<!\\g{-1})",
      "\\g{10}(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)",
      "\\k<n>(a)(b)(c)(d)(e)(f)(g)(h)(i)(?<n>j)", "(?<=(.)|(..))\\2", "(?<=(a)|(ba))b\\1",
      "(?:(?=(a))x|a)\\1", "(?>(a))\\1", "(?:(a)|b)++\\1", "(?:\\1|(?=(a)))+", "(?!(a)b)\\1",
      "(?<=(?:(a)|b){2})\\1", "(?=(?=(a))a)\\1", "()*\\1", "(a)*\\1", "(?:(a)b)+\\1", "(a)?\\1",
      "(?:(a)\\1)*", "\\1(?:(a))+", "\\g{+1}0|((?<=){2}){0,2}\\r", "\\S+\\h?", "\\S+\\s*\\h", "(?:\\S+)\\h",
      "\\S+(\\h)", "\\S*\\h*", "\\S+|\\h", "(?-s).*(?:\\R)", "\\R*\\s?x", "(?:x|\\Gb){0}a", "(?:x|^){0}a",
      "(x|.*){0}a", "(?=x|y){0}a", "(?:x|y){0,0}?a", "(?:|\\G){0}a", "(a|\\1?).", "(a|b\\1{0,2}?).",
      "(a|\\2)(b|\\1)", "((a)|\\1)", "(?<n>a|\\k<n>?)", "(?=A)x?A", "(?=A)]{0,2}A", "(?:(?=A)|(?=A))x?A",
      "\\b(?=A)x?A", "(?!B)(?=A)x?A", "a{0}(?=A)x?A", "/{0,2}(?>|a)..", "a*(?>b|c)", "\\R?(?>b|)");

  @Test
  void handWrittenTableAgreesWithPcre2() {
    Tally tally = new Tally();
    Random random = new Random(SEED);
    for (Case entry : TABLE) {
      Set<String> subjects = new LinkedHashSet<>(entry.subjects());
      subjects.addAll(COMMON_SUBJECTS);
      // One-byte patterns and class-like escapes are checked on every byte.
      if (entry.subjects().isEmpty() || entry.pattern().length() <= 2) {
        subjects.addAll(ALL_BYTES);
      }
      for (int i = 0; i < 24; i++) {
        subjects.add(Subjects.random(entry.pattern(), random));
      }
      tally.compare(entry.pattern(), List.copyOf(subjects));
    }
    for (String property : new String[] {"C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M",
        "Mc", "Me", "Mn", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm",
        "So", "Z", "Zl", "Zp", "Zs"}) {
      for (String form : new String[] {"\\p{%s}", "\\P{%s}", "[\\p{%s}]", "[^\\p{%s}]", "(?i)\\p{%s}"}) {
        tally.compare(String.format(form, property), ALL_BYTES);
      }
    }
    System.out.println("PCRE2 differential, hand-written table: " + tally);
    assertEquals(List.of(), tally.firstDisagreements(), tally.disagreements.size() + " disagreements; " + tally);
  }

  /**
   * {@link PcrePattern#checkAnchored} accepts a literal head and a common tail without translating
   * it: PCRE2 must compile every such pattern, anchored as libselinux anchors it, and for every
   * other pattern the check must say what PCRE2 says.
   */
  @Test
  void patternsValidByConstructionAreValidInPcre2() {
    Random random = new Random(SEED);
    List<String> tails = new ArrayList<>(LiteralHead.COMMON_TAILS);
    tails.addAll(List.of("(", ")", "]", "}", "{2}", "{,", "\\", "\\d", "\\Q", "*", "+x", "?", "|", "[a-", "(/.*)", "(/.*)?)"));
    List<String> problems = new ArrayList<>();
    int byConstruction = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder pattern = new StringBuilder();
      int length = random.nextInt(24);
      for (int c = 0; c < length; c++) {
        // Mostly what path literals hold, so that many patterns are heads and tails.
        char next = random.nextInt(4) > 0 ? "abxyz019/_-~:@,%=".charAt(random.nextInt(17)) : (char) (1 + random.nextInt(0x7f));
        if (next == ' ' || (next >= '\t' && next <= '\r')) {
          continue; // a policy line's fields hold no whitespace
        }
        if (random.nextInt(8) == 0) {
          pattern.append('\\');
        }
        pattern.append(next);
      }
      List<String> from = random.nextBoolean() ? List.copyOf(LiteralHead.COMMON_TAILS) : tails;
      pattern.append(from.get(random.nextInt(from.size())));
      String regex = pattern.toString();
      Pcre2.Compiled reference = Pcre2.compile("^" + regex + "$");
      if (reference.ok()) {
        reference.handle().close();
      }
      boolean fast = LiteralHead.validByConstruction(regex);
      byConstruction += fast ? 1 : 0;
      String ours;
      try {
        PcrePattern.checkAnchored(regex);
        ours = null;
      } catch (PcreSyntaxException e) {
        ours = e.getMessage();
      }
      boolean refused = ours != null && ours.contains("not supported by relabel");
      if (fast && !reference.ok() || !refused && (ours == null) != reference.ok()) {
        problems.add(show(regex) + (fast ? " (valid by construction)" : "") + ": PCRE2 " + reference + ", relabel "
            + (ours == null ? "accepts it" : ours));
      }
    }
    assertTrue(byConstruction >= 2_000, "too few patterns took the shortcut for the test to mean much: " + byConstruction);
    assertEquals(List.of(), problems.subList(0, Math.min(problems.size(), 20)), problems.size() + " disagreements");
  }

  /**
   * Items opening with {@code (*}, callouts, recursions and calls that PCRE2 10.42 rejects from the
   * item alone: relabel must reject them with PCRE2's own words, not call them unsupported (a
   * start-of-pattern option is one only at the start).
   */
  private static final List<String> MALFORMED_ITEMS = List.of("(*FOO)", "(*MARK)", "a(*UTF)", "(*Pla:a)", "a(*CR)",
      "(*", "(*)", "(*:)", "(*ACCEPT", "(*1)", "(*A1)", "(*pla)", "(*atomic)", "(*a_b)", "(*_x)", "(* )", "(*X",
      "(*:a", "(*MARK:a", "(*MARK:)", "(*plA:a)", "(*utf)a", "(*LIMIT_MATCH=)a", "(*LIMIT_MATCH=4294967290)a",
      "(*LIMIT_MATCH=1x)a", "(*UTF9)a", "(*FOO)(*UTF)a", "(*ACCEPT )", "a|(*UTF)",
      "(?:(*UTF))a",
      // callouts, recursion and calls, as malformed as the item alone shows
      "(?C300)a", "(?C256", "(?Cx)a", "(?C|x|)a", "(?C1x)a", "(?C\"x\"x)a", "(?C{x)a", "(?C{x}})a", "(?C\"x", "(?C1",
      "(?C", "(?Rx)", "(?R", "(?R1)", "(?&)", "(?& n)", "(?&1)", "(?&1a", "(?&n-)", "(?&n", "(?P>)", "(?P>1a)", "(?P>n",
      "(?&" + "a".repeat(33) + ")", "(?+0)", "(?-00)");

  /**
   * Patterns PCRE2 rejects for something after a construct relabel cannot run, or for a group
   * such a construct names that the pattern does not have: relabel reads on past the construct
   * (PcreReadOn) and must reject them in PCRE2's words, not call them unsupported. Not covered
   * (still "not supported"): what follows a branch reset or the x, n or J option, an unknown
   * property after one relabel cannot run.
   */
  private static final List<String> MALFORMED_LATER = List.of("(?1)", "(?&n)", "(?P>n)", "\\g<2>(a)", "(?2)(a)",
      "(?-1)", "(?+1)", "(a)(?-2)", "(?+2)(a)", "\\g<-1>", "\\g<+1>", "(?(1)b)", "(?(<n>)a)", "(?('n')a)",
      "(a)(?1)\\2", "(?R)\\k<zz>", "(?U", "(?Ua)", "(?U)a{2,1}", "(?U)a\\", "(?U)[z-a]", "(?U)(?<n>a)(?<n>b)",
      "(?1)(a", "\\Ka)", "a\\K*", "(?C1)*", "(?C1)a)", "(*ACCEPT)[a", "(*UTF)(*FOO)a", "(*UTF)*a",
      "(*pla:a)b)", "(*plb:a+)", "(*atomic:a|b)c[", "(?*a)(", "(?<*a+)", "(?(?=a)a|b)(", "\\p{Greek}(",
      "[\\p{Latin}](", "(?=a)b(", "(a)*\\1)", "(?:x|^){0}a(", "(?(1)a|b|c)(x)", "(?(?=a)a|b|c)", "(?(R)a|b|c)",
      "(?(DEFINE)a|b)");

  @Test
  void malformedPatternsAreRejectedInPcre2sWordsAlsoAfterAnUnsupportedItem() {
    assertEquals(List.of(), rejectedInPcre2sWords(MALFORMED_LATER));
  }

  @Test
  void malformedVerbsAndCallsAreRejectedInPcre2sWords() {
    assertEquals(List.of(), rejectedInPcre2sWords(MALFORMED_ITEMS));
  }

  /**
   * Every property name PCRE2 knows (as {@link Pcre2Properties} lists them) and names it does not,
   * each plain, negated, in a class, and with the script and Bidi class prefixes: relabel refuses
   * in PCRE2's words ("unknown property", at its offset) exactly what PCRE2 refuses, and what
   * PCRE2 compiles it compiles or refuses as unsupported, never as malformed.
   */
  @Test
  void propertyNamesAreKnownAsPcre2KnowsThem() {
    List<String> names = new ArrayList<>(List.of("Foo", "", "Greek:", ":Greek", "bidi", "sc:Greek", "Latn2", "Q",
        "L&", "Bidi Class", "Any", "XAN", "Script_Extensions", "zzzz", "Lu", "sc", "bc"));
    for (String known : new java.util.TreeSet<>(Pcre2Properties.names())) {
      names.add(known);
      names.add(known.toUpperCase(java.util.Locale.ROOT).replace("A", "_A")); // as loosely as PCRE2 matches
    }
    List<String> problems = new ArrayList<>();
    int unknown = 0;
    for (String name : names) {
      for (String pattern : List.of("\\p{" + name + "}", "\\P{^" + name + "}x", "[a\\p{" + name + "}]",
          "\\p{sc:" + name + "}", "\\p{Script_Extensions=" + name + "}", "\\p{bc:" + name + "}",
          "\\p{bidi class:" + name + "}", "\\p" + name)) {
        Pcre2.Compiled reference = Pcre2.compile(pattern);
        String ours;
        try {
          PcrePattern.compile(pattern);
          ours = null;
        } catch (PcreSyntaxException e) {
          ours = e.getMessage();
        }
        if (reference.ok()) {
          reference.handle().close();
          if (ours != null && !ours.contains("not supported by relabel")) {
            problems.add(show(pattern) + ": PCRE2 compiles it, relabel says '" + ours + "'");
          }
        } else {
          unknown += reference.error().contains("unknown property") ? 1 : 0;
          if (ours == null || !ours.contains(reference.error())) {
            problems.add(show(pattern) + ": '" + ours + "', where PCRE2 says '" + reference.error() + "'");
          }
        }
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(unknown > 1_000, "PCRE2 should have refused the unknown names and prefixes: " + unknown);
  }

  /** The patterns PCRE2 compiles, or that relabel compiles or rejects in other words. */
  private static List<String> rejectedInPcre2sWords(List<String> malformed) {
    List<String> problems = new ArrayList<>();
    for (String pattern : malformed) {
      Pcre2.Compiled reference = Pcre2.compile(pattern);
      if (reference.ok()) {
        reference.handle().close();
        problems.add(show(pattern) + ": PCRE2 compiles it, so it does not belong in the list");
        continue;
      }
      try {
        PcrePattern.compile(pattern);
        problems.add(show(pattern) + ": compiled, where PCRE2 says " + reference.error());
      } catch (PcreSyntaxException e) {
        if (!e.getMessage().contains(reference.error())) {
          problems.add(show(pattern) + ": '" + e.getMessage() + "', where PCRE2 says '" + reference.error() + "'");
        }
      }
    }
    return problems;
  }

  @Test
  void unsupportedFeaturesAreRefusedNotMistranslated() {
    List<String> problems = new ArrayList<>();
    Tally tally = new Tally();
    for (String pattern : REFUSED) {
      Pcre2.Compiled reference = Pcre2.compile(pattern);
      if (!reference.ok()) {
        problems.add(show(pattern) + ": PCRE2 rejects it (" + reference + "), so it does not belong in REFUSED");
        continue;
      }
      reference.handle().close();
      try {
        PcrePattern ours = PcrePattern.compile(pattern);
        problems.add(show(pattern) + ": compiled to " + show(ours.javaPattern().pattern()) + " instead of refused");
      } catch (PcreSyntaxException e) {
        if (!e.getMessage().contains("not supported by relabel")) {
          problems.add(show(pattern) + ": rejected as a syntax error: " + e.getMessage());
        }
      }
      // Some are refused only where they start the pattern; wrapped, they must then agree.
      tally.compare(pattern, COMMON_SUBJECTS);
    }
    problems.addAll(tally.disagreements);
    assertEquals(List.of(), problems);
  }

  @Test
  void randomPatternsAgreeWithPcre2() {
    long started = System.nanoTime();
    Tally tally = new Tally();
    Random random = new Random(SEED);
    PatternGenerator generator = new PatternGenerator(random);
    for (int i = 0; i < RANDOM_PATTERNS; i++) {
      String pattern = generator.pattern();
      List<String> subjects = new ArrayList<>();
      for (int s = 0; s < SUBJECTS_PER_RANDOM_PATTERN; s++) {
        subjects.add(Subjects.random(pattern, random));
      }
      tally.compare(pattern, subjects);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf("PCRE2 differential, %d random patterns (seed %#x) in %.1f s: %s%n", RANDOM_PATTERNS, SEED,
        seconds, tally);
    assertTrue(tally.pairs >= 20_000, "too few pattern/subject pairs compared: " + tally);
    assertTrue(tally.matched >= tally.pairs / 20, "too few subjects match for the comparison to mean much: " + tally);
    assertTrue(tally.bothRejected >= RANDOM_PATTERNS / 50, "the generator hardly exercises PCRE2's errors: " + tally);
    assertEquals(List.of(), tally.firstDisagreements(), tally.disagreements.size() + " disagreements; " + tally);
  }

  // ---- Comparison ----

  /** Counts of what was compared, and every disagreement. */
  private static final class Tally {
    int forms;
    int bothCompiled;
    int bothRejected;
    int refused;
    long pairs;
    long agreements;
    long matched;
    long referenceGaveUp;
    final List<String> disagreements = new ArrayList<>();
    final Map<String, Integer> refusals = new TreeMap<>();

    /** Compares {@code pattern} as given and as libselinux wraps it. */
    void compare(String pattern, List<String> subjects) {
      compareForm(pattern, subjects);
      compareForm("^" + pattern + "$", subjects);
    }

    private void compareForm(String pattern, List<String> subjects) {
      forms++;
      PcrePattern ours = null;
      String ourError = null;
      try {
        ours = PcrePattern.compile(pattern);
      } catch (PcreSyntaxException e) {
        ourError = e.getMessage();
      } catch (RuntimeException | StackOverflowError e) {
        disagreements.add(show(pattern) + ": the translation crashed: " + e);
        return;
      }
      Pcre2.Compiled reference = Pcre2.compile(pattern);
      if (!reference.ok()) {
        if (ours == null) {
          bothRejected++;
        } else {
          disagreements.add(show(pattern) + ": PCRE2 rejects it (" + reference + ") but we compile it to "
              + show(ours.javaPattern().pattern()));
        }
        return;
      }
      try (Pcre2.Handle handle = reference.handle()) {
        if (ours == null) {
          if (ourError.contains("not supported by relabel")) {
            refused++;
            refusals.merge(ourError.replaceAll(" is not supported by relabel.*", ""), 1, Integer::sum);
          } else {
            disagreements.add(show(pattern) + ": PCRE2 compiles it but we reject it: " + ourError);
          }
          return;
        }
        bothCompiled++;
        for (String subject : subjects) {
          if (!subject.chars().allMatch(c -> c <= 0xff)) {
            throw new IllegalArgumentException("subjects are bytes, one char each: " + show(subject));
          }
          pairs++;
          byte[] bytes = subject.getBytes(StandardCharsets.ISO_8859_1);
          String expected;
          String actual;
          try {
            expected = String.valueOf(handle.matches(bytes));
          } catch (IllegalStateException e) {
            expected = e.getMessage();
          }
          if (expected.contains("match limit")) {
            // PCRE2 gave up (and libselinux with it): there is no answer to compare with.
            referenceGaveUp++;
            continue;
          }
          try {
            actual = String.valueOf(ours.find(new Budgeted(subject)));
          } catch (Budgeted.Exhausted e) {
            actual = "more than " + Budgeted.READS + " reads of the subject";
          } catch (StackOverflowError e) {
            actual = "StackOverflowError";
          }
          if (expected.equals(actual)) {
            agreements++;
            if (expected.equals("true")) {
              matched++;
            }
          } else {
            disagreements.add(show(pattern) + " on " + show(subject) + ": PCRE2 " + expected + ", ours " + actual
                + " (java " + show(ours.javaPattern().pattern()) + ")");
          }
        }
      }
    }

    List<String> firstDisagreements() {
      return disagreements.subList(0, Math.min(60, disagreements.size()));
    }

    @Override
    public String toString() {
      return String.format("%d pattern forms: %d compiled by both, %d rejected by both, %d refused as unsupported %s;"
          + " %d subjects compared, %d agree (%d matches), %d where PCRE2 hit its match limit, %d disagreements",
          forms, bothCompiled, bothRejected, refused, refusals, pairs, agreements, matched, referenceGaveUp,
          disagreements.size());
    }
  }

  /**
   * A subject that java.util.regex may read only so often: a random pattern can backtrack
   * catastrophically, and Java, unlike PCRE2, has no match limit to stop it.
   */
  private static final class Budgeted implements CharSequence {
    static final long READS = 20_000_000L;
    private final String subject;
    private long left = READS;

    static final class Exhausted extends RuntimeException {
      private static final long serialVersionUID = 1L;
    }

    Budgeted(String subject) {
      this.subject = subject;
    }

    @Override
    public char charAt(int index) {
      if (--left < 0) {
        throw new Exhausted();
      }
      return subject.charAt(index);
    }

    @Override
    public int length() {
      return subject.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return subject.subSequence(start, end);
    }

    @Override
    public String toString() {
      return subject;
    }
  }

  /** A byte string with control bytes and bytes >= 0x7F as \xHH. */
  private static String show(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f) {
        b.append(String.format("\\x%02x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  // ---- Random patterns and subjects ----

  /** Subjects biased toward the pattern's own bytes and the bytes the dialects disagree on. */
  private static final class Subjects {
    private static final String SPECIAL = "/\n\r\u0085\u00a0\u00e9\u00c9aA_0 \u000b\u0000";

    static String random(String pattern, Random random) {
      int length = random.nextInt(11);
      StringBuilder subject = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        double pick = random.nextDouble();
        if (pick < 0.6 && !pattern.isEmpty()) {
          subject.append(pattern.charAt(random.nextInt(pattern.length())));
        } else if (pick < 0.95) {
          subject.append(SPECIAL.charAt(random.nextInt(SPECIAL.length())));
        } else {
          subject.append((char) random.nextInt(256));
        }
      }
      return subject.toString();
    }
  }

  /**
   * Patterns from a grammar of the constructs where PCRE2 and java.util.regex part ways. Most
   * patterns are drawn "clean", from choices that keep them valid, so that many compile and their
   * matching gets compared; the rest "wild", from every choice, errors included.
   */
  private static final class PatternGenerator {
    private static final String[] LITERALS = {"a", "b", "c", "A", "B", "z", "Z", "/", "_", "-", "0", "1", "8", " ",
        "#", ",", ":", "=", "}", "]", "&", "~", "%", "@", "'", "<", ">", "\u0085", "\u00a0", "\u00e9", "\u00c9",
        "\u00ff", "\n", "\r", "\t", "\\.", "\\*", "\\+", "\\?", "\\(", "\\)", "\\[", "\\]", "\\{", "\\}", "\\|",
        "\\^", "\\$", "\\\\", "\\/", "\\-", "\\#", "\\_", "\\ ", "\\\u00e9", "a{", "a{,2}", "\\Qa.\\E", "\\Q|"};
    /** Escapes that stand for one byte or a set of bytes: valid, and repeatable. */
    private static final String[] ESCAPES = {"\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "\\h", "\\H", "\\v",
        "\\V", "\\N", "\\R", "\\X", "\\C", "\\n", "\\r", "\\t", "\\f", "\\e", "\\a", "\\0", "\\00",
        "\\012", "\\101", "\\18", "\\377", "\\x9", "\\x41", "\\x61", "\\x{e9}", "\\x{85}", "\\x{a0}", "\\xg",
        "\\o{101}", "\\cA", "\\ca", "\\c?", "\\p{L}", "\\P{Lu}", "\\pN", "\\p{Ll}", "\\p{^Ll}", "\\p{Xwd}",
        "\\p{Xps}", "\\p{Any}", "\\p{Zs}", "\\p{ l u }", "\\N{2}"};
    /** Escapes that are errors, refused, or not repeatable. */
    private static final String[] WILD_ESCAPES = {"\\x{}", "\\x{100}", "\\o{}", "\\o", "\\c", "\\400",
        "\\p{Latin}", "\\p{Foo}", "\\K", "\\y", "\\u", "\\L", "\\8", "\\9", "\\i", "\\N{x}", "\\E",
        "\\Q\\E", "\\G", "\\b", "\\B", "\\A", "\\z", "\\Z"};
    private static final String[] WILD_BACKREFERENCES = {"\\1", "\\2", "\\3", "\\g1", "\\g{-1}", "\\g{+1}",
        "\\g{2}", "\\k<n1>", "\\k{n2}", "(?P=n1)", "\\g{n2}", "\\k<zz>", "\\10", "\\g0"};
    private static final String[] ANCHORS = {"^", "$", "\\A", "\\z", "\\Z", "\\G", "\\b", "\\B", "[[:<:]]",
        "[[:>:]]"};
    private static final String[] OPTIONS = {"(?i)", "(?-i)", "(?s)", "(?-s)", "(?m)", "(?-m)", "(?^)", "(?i-s)",
        "(?im)", "(?)", "(?#c)"};
    private static final String[] WILD_OPTIONS = {"(?x)", "(?z)", "(?--i)", "(?n)"};
    private static final String[] GROUPS = {"(", "(", "(", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?>", "(?i:",
        "(?-i:", "(?s:", "(?-s:", "(?m:", "(?i-s:"};
    private static final String[] WILD_GROUPS = {"(?<n1>", "(?'n2'", "(?P<n1>", "(?|", "(?<n_3>", "(?*", "(?C)"};
    private static final String[] JUNK = {")", "(", "{", "}", "]", "*", "?", "+", "(?", "[", "\\", "{2}", "{,2}",
        "{1,}", "{2,1}", "(*", "(?#", "[:alpha:]"};
    private static final String[] QUANTIFIERS = {"*", "+", "?", "{2}", "{0}", "{1,}", "{0,2}", "{1,3}", "{3}"};
    private static final String[] WILD_QUANTIFIERS = {"{2,1}", "{65536}", "{,2}", "{", "{}", "{1,2,}"};
    private static final String[] POSIX = {"[:alpha:]", "[:^digit:]", "[:word:]", "[:space:]", "[:upper:]",
        "[:lower:]", "[:punct:]", "[:^alnum:]", "[:xdigit:]", "[:blank:]", "[:cntrl:]", "[:graph:]"};
    private static final String[] WILD_POSIX = {"[:foo:]", "[.a.]", "[:alpha:", "[=a=]"};
    private static final String[] CLASS_ITEMS = {"a", "z", "A", "_", "-", "^", "[", "&&", "&", "\\]", "\\\\", "\\-",
        "\\^", "\\d", "\\w", "\\s", "\\h", "\\v", "\\W", "\\S", "\\p{L}", "\\P{N}", "\\b", "\\x41",
        "\\x{e9}", "\\n", "\\Q]-\\E", "\\Qa\\E", "\\E", "\\Q\\E", "\u00e9", "\u00c9", "\u0085", "\\n", "/", ".",
        "*", "$", "(", "|", "\\1", "\\8", "\\012", "\\cA", "\\o{101}", ":", "\\g", "{", "]"};
    private static final String[] WILD_CLASS_ITEMS = {"\\B", "\\N", "\\y", "\\R", "\\k", "\\400"};
    private static final String[] RANGE_ENDS = {"a", "c", "z", "A", "Z", "0", "9", "-", "!", "/", "\u00e0",
        "\u00ff", "\\x41", "\\x{7a}", "\\n", "\\Qb\\E", "\\]", "%", "[", "&"};
    private static final String[] WILD_RANGE_ENDS = {"\\d", "[:alpha:]"};

    private final Random random;
    private boolean wild;
    private int groups;
    private int names;

    PatternGenerator(Random random) {
      this.random = random;
    }

    String pattern() {
      wild = random.nextDouble() < 0.25;
      groups = 0;
      names = 0;
      StringBuilder pattern = new StringBuilder();
      alternation(pattern, 0);
      return pattern.toString();
    }

    /** A clean choice, or in a wild pattern sometimes a wild one. */
    private String pick(String[] clean, String[] wildChoices) {
      if (wild && random.nextDouble() < 0.3) {
        return wildChoices[random.nextInt(wildChoices.length)];
      }
      return clean[random.nextInt(clean.length)];
    }

    private void alternation(StringBuilder pattern, int depth) {
      int branches = random.nextDouble() < 0.25 ? 2 + random.nextInt(2) : 1;
      for (int b = 0; b < branches; b++) {
        if (b > 0) {
          pattern.append('|');
        }
        sequence(pattern, depth);
      }
    }

    private void sequence(StringBuilder pattern, int depth) {
      int pieces = depth == 0 ? 1 + random.nextInt(5) : random.nextInt(4);
      for (int p = 0; p < pieces; p++) {
        boolean repeatable = atom(pattern, depth);
        if ((repeatable || wild) && random.nextDouble() < 0.3) {
          quantifier(pattern);
        }
      }
    }

    /** Appends an atom; returns whether a quantifier may follow it. */
    private boolean atom(StringBuilder pattern, int depth) {
      double pick = random.nextDouble();
      if (pick < 0.30) {
        pattern.append(pick(LITERALS, LITERALS));
      } else if (pick < 0.36) {
        pattern.append('.');
      } else if (pick < 0.50) {
        String escape = pick(ESCAPES, WILD_ESCAPES);
        pattern.append(escape);
        return !escape.equals("\\Q\\E") && !escape.equals("\\E");
      } else if (pick < 0.64) {
        characterClass(pattern);
      } else if (pick < 0.80 && depth < MAX_GROUP_DEPTH) {
        String open = pick(GROUPS, WILD_GROUPS);
        if (open.equals("(") && random.nextDouble() < 0.3) {
          names++;
          open = random.nextBoolean() ? "(?<n" + names + ">" : "(?P<n" + names + ">";
        }
        if (open.equals("(") || open.startsWith("(?<n") || open.startsWith("(?P<") || open.startsWith("(?'")) {
          groups++;
        }
        pattern.append(open);
        alternation(pattern, depth + 1);
        pattern.append(')');
      } else if (pick < 0.86) {
        pattern.append(ANCHORS[random.nextInt(ANCHORS.length)]);
        return false;
      } else if (pick < 0.91) {
        pattern.append(pick(OPTIONS, WILD_OPTIONS));
        return false;
      } else if (pick < 0.96) {
        backReference(pattern);
      } else if (wild) {
        pattern.append(JUNK[random.nextInt(JUNK.length)]);
      } else {
        pattern.append(pick(LITERALS, LITERALS));
      }
      return true;
    }

    /** A reference to a group opened before it (a wild one may name any group). */
    private void backReference(StringBuilder pattern) {
      if (wild || groups == 0) {
        pattern.append(WILD_BACKREFERENCES[random.nextInt(WILD_BACKREFERENCES.length)]);
        return;
      }
      int group = 1 + random.nextInt(groups);
      switch (random.nextInt(names > 0 ? 5 : 3)) {
        case 0 -> pattern.append('\\').append(group);
        case 1 -> pattern.append("\\g{").append(group).append('}');
        case 2 -> pattern.append("\\g{-").append(groups - group + 1).append('}');
        case 3 -> pattern.append("\\k<n").append(1 + random.nextInt(names)).append('>');
        default -> pattern.append("(?P=n").append(1 + random.nextInt(names)).append(')');
      }
    }

    private void quantifier(StringBuilder pattern) {
      pattern.append(pick(QUANTIFIERS, WILD_QUANTIFIERS));
      double suffix = random.nextDouble();
      if (suffix < 0.15) {
        pattern.append('?');
      } else if (suffix < 0.25) {
        pattern.append('+');
      } else if (suffix < 0.27 && wild) {
        pattern.append('*');
      }
    }

    private void characterClass(StringBuilder pattern) {
      pattern.append('[');
      if (random.nextDouble() < 0.3) {
        pattern.append('^');
      }
      if (random.nextDouble() < 0.1) {
        pattern.append(']');
      }
      int items = 1 + random.nextInt(4);
      for (int i = 0; i < items; i++) {
        double pick = random.nextDouble();
        if (pick < 0.5) {
          pattern.append(pick(CLASS_ITEMS, WILD_CLASS_ITEMS));
        } else if (pick < 0.75) {
          // A clean range is in order: PCRE2 refuses z-a.
          String low = pick(RANGE_ENDS, WILD_RANGE_ENDS);
          String high = pick(RANGE_ENDS, WILD_RANGE_ENDS);
          pattern.append(low).append('-').append(high);
        } else {
          pattern.append('[').append(pick(POSIX, WILD_POSIX)).append(']');
        }
      }
      if (!wild || random.nextDouble() < 0.9) {
        pattern.append(']');
      }
    }
  }
}
