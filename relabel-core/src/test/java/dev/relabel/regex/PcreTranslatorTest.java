package dev.relabel.regex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The translation, stage by stage, without libpcre2: the Java pattern each PCRE2 construct
 * becomes, and the patterns PCRE2 refuses (or relabel does not support), with where. The
 * differential test (PcreDifferentialTest) stays the oracle that these translations match as
 * PCRE2 matches; these pin how, so that a change to one stage shows here first, on any machine.
 */
class PcreTranslatorTest {
  private static String java(String pcre) throws PcreSyntaxException {
    return PcreTranslator.translate(pcre);
  }

  private static boolean matches(String pcre, String subject) throws PcreSyntaxException {
    return Pattern.compile(java(pcre), PcrePattern.FLAGS).matcher(subject).matches();
  }

  private static String refusal(String pcre) {
    return assertThrows(PcreSyntaxException.class, () -> java(pcre)).getMessage();
  }

  // ---- Lexing (PcreLexer): escapes, numbers, quoting, names, classes ----
  @Test
  void literalsStayAsWritten() throws Exception {
    assertEquals("/usr/bin", java("/usr/bin"));
    assertEquals("/usr(/.*)?", java("/usr(/.*)?"));
  }

  @Test
  void aBraceThatIsNoQuantifierIsALiteral() throws Exception {
    assertEquals("/a\\x{7b}b", java("/a{b"));
    assertEquals("/a\\x{7b},3\\x{7d}", java("/a{,3}"));
    assertEquals("/a{2,3}x", java("/a{2,3}x"));
  }

  @Test
  void octalHexAndBracedEscapesAreBytes() throws Exception {
    assertEquals("AAB", java("\\x41\\101\\o{102}"));
  }

  @Test
  void quotingAndCommentsLeaveOnlyLiterals() throws Exception {
    assertEquals("a\\x{2e}b", java("\\Qa.b\\E"));
    assertEquals("ab", java("a(?#comment)b"));
  }

  @Test
  void classesAreWrittenAsExplicitByteSets() throws Exception {
    assertEquals("[A-Za-z]", java("[[:alpha:]]"));
    assertEquals("[0-9]+", java("\\d+"));
    assertEquals("[\\x{5d}a]", java("[]a]"));
    assertEquals("[\\x{26}ab]", java("[a&&b]"));
    assertEquals("[A-Z\\x{c0}-\\x{d6}\\x{d8}-\\x{de}]", java("\\p{Lu}"));
    // PCRE2's C locale: \s has VT, not NEL or NBSP; [:alpha:] is ASCII.
    assertEquals("[a-c]+[\\x{9}-\\x{d}\\x{20}]", java("[a-c]+\\s"));
    assertTrue(matches("\\s", "\u000b"));
    assertFalse(matches("\\s", "\u0085"));
    assertFalse(matches("[[:alpha:]]", "\u00e9"));
  }

  @Test
  void escapesJavaReadsOtherwiseAreSpelledOut() throws Exception {
    assertEquals("[^\\n]", java("\\N"));
    assertEquals("(?>\\r\\n|[\\n\\x{b}\\f\\r\\x{85}])", java("\\R"));
    String ascii = "(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))";
    assertEquals(ascii + "word" + ascii, java("\\bword\\b"));
  }

  @Test
  void aBadRangeIsRefusedWhereItEnds() {
    assertEquals("range out of order in character class at offset 4", refusal("[z-a]"));
  }

  // ---- Structure and PCRE2's limits: groups, options, lookbehind lengths, sizes, what is unsupported ----
  @Test
  void optionsAreTrackedNotPassedOn() throws Exception {
    assertEquals("[Aa][Bb]", java("(?i)ab"));
  }

  @Test
  void namedGroupsBecomeNumbered() throws Exception {
    assertEquals("(a)(?:\\1)", java("(?<n>a)\\k<n>"));
    assertEquals("(a)(?:\\1)", java("(a)\\1"));
  }

  @Test
  void parenthesesMustBalance() {
    assertEquals("missing closing parenthesis at offset 2", refusal("a("));
    assertEquals("unmatched closing parenthesis at offset 1", refusal("a)"));
  }

  @Test
  void aQuantifierNeedsAnItem() {
    assertEquals("quantifier does not follow a repeatable item at offset 0", refusal("*a"));
  }

  @Test
  void lookbehindsHaveAFixedLength() throws Exception {
    assertEquals("(?<=ab)c", java("(?<=ab)c"));
    assertEquals("lookbehind assertion is not fixed length at offset 6", refusal("(?<=a+)b"));
  }

  @Test
  void limitsAreCheckedAsPcre2ChecksThem() {
    assertEquals("number too big in {} quantifier at offset 7", refusal("a{70000}"));
  }

  @Test
  void whatJavaCannotExpressIsRefusedNotApproximated() {
    assertEquals("a recursion or subroutine call is not supported by relabel at offset 0",
        refusal("(?R)"));
    assertEquals("the (?x) option is not supported by relabel at offset 2", refusal("(?x)a"));
    assertEquals("\\K is not supported by relabel at offset 2", refusal("\\K"));
    assertEquals("a lookahead at the start of the pattern or of a top-level alternative is not supported"
        + " by relabel at offset 0", refusal("(?=a)b"));
  }

  // ---- Writing Java: anchors, repeats, where Java reads the same text otherwise ----
  @Test
  void anchorsAreExplicitAboutTheNewline() throws Exception {
    assertEquals("a(?=\\n?\\z)", java("a$"));
    assertEquals("x(?=\\n?\\z)", java("x\\Z"));
    assertEquals("\\Aa", java("^a"));
    // PCRE2's $ (no multiline): the end, or one newline just before it.
    assertTrue(Pattern.compile(java("a$"), PcrePattern.FLAGS).matcher("a\n").lookingAt());
    assertFalse(Pattern.compile(java("a$"), PcrePattern.FLAGS).matcher("a\n\n").lookingAt());
  }

  @Test
  void repeatsAreKeptWhereJavaRepeatsAlike() throws Exception {
    assertEquals("a++", java("a++"));
    assertEquals("(a|)*", java("(a|)*"));
    assertEquals("a{0}", java("a{0}"));
    assertEquals(".", java("."));
    assertEquals("[^a]", java("[^a]"));
  }
}
