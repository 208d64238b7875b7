package dev.relabel.regex;

import java.util.Map;

/**
 * The pattern's structure, as PCRE2 checks it: groups and their kinds, alternatives, option
 * settings with PCRE2's scoping, named groups, the fixed-length rule of lookbehinds and the
 * nesting limit.
 */
abstract class PcreGroups extends PcreRepeats {
  /** A reference by name, {@code pos} just after its opener ({@link PcreTranslator}). */
  abstract void namedReference(char terminator) throws PcreSyntaxException;

  PcreGroups(String pattern, Map<String, Integer> names, boolean namesComplete) {
    super(pattern, names, namesComplete);
  }

  void alternative() throws PcreSyntaxException {
    autoPossessAcrossStructure();
    endBranch();
    frame.branchLength = 0;
    frame.branchMin = 0;
    frame.branches++;
    size += 3;
    leading = frame.leading && frame.kind != Kind.LOOKAHEAD && frame.kind != Kind.LOOKBEHIND;
    out.append('|');
    in.pos++;
    repeatable = false;
    quantified = false;
  }

  /** Records the length of the branch that just ended; a lookbehind's must be fixed. */
  void endBranch() throws PcreSyntaxException {
    int length = frame.branchLength;
    if (frame.kind == Kind.LOOKBEHIND) {
      if (length == VARIABLE) {
        throw in.error("lookbehind assertion is not fixed length");
      }
      if (length > MAX_LOOKBEHIND) {
        throw in.error("lookbehind assertion is too long");
      }
    }
    frame.groupMin = Math.min(frame.groupMin, frame.branchMin);
    if (frame.groupLength == NO_BRANCH) {
      frame.groupLength = length;
    } else if (frame.groupLength != length) {
      // Inside a lookbehind PCRE2 10.42 needs every branch of a nested group to be the same length.
      frame.groupLength = VARIABLE;
    }
  }

  void open(String java, Kind kind, int length) throws PcreSyntaxException {
    if (kind == Kind.LOOKAHEAD || kind == Kind.LOOKBEHIND) {
      // PCRE2 does not look into an assertion for auto-possessification.
      autoPossessClear();
    } else {
      autoPossessAcrossStructure();
    }
    if (kind == Kind.LOOKAHEAD && java.equals("(?=") && leading) {
      /*
       * With no first byte of its own, PCRE2 takes one a leading lookahead asserts, and then
       * looks for a required byte (the last literal) only after it and counts both in the minimum
       * length: (?=A)x?A never matches "A".
       */
      refuse("a lookahead at the start of the pattern or of a top-level alternative");
    }
    // A capturing group has just been numbered: it is its own first group.
    boolean capturing = java.equals("(");
    frame = new Frame(frame, kind, options, capturing ? groups : groups + 1, capturing, out.length());
    frame.leading = leading;
    frame.sizeAtOpen = size;
    depth++;
    size += 5;
    if (kind == Kind.LOOKAHEAD || kind == Kind.LOOKBEHIND) {
      leading = false;
    }
    out.append(java);
    in.pos += length;
    repeatable = false;
    quantified = false;
  }

  void groupClose() throws PcreSyntaxException {
    if (frame.parent == null) {
      throw in.error("unmatched closing parenthesis");
    }
    if (frame.maxBranches > 0 && frame.branches > frame.maxBranches) {
      // the stand-in of a conditional group (PcreReadOn)
      throw in.error(frame.maxBranches == 1 ? "DEFINE subpattern contains more than one branch"
          : "conditional subpattern contains more than two branches");
    }
    autoPossessAcrossStructure();
    endBranch();
    Frame closed = frame;
    frame = closed.parent;
    depth--;
    options = closed.outerOptions;
    in.pos++;
    out.append(')');
    if (closed.kind == Kind.ATOMIC && closed.branches > 1 && sawIterator) {
      /*
       * Checking whether a repeat before it can be made possessive, PCRE2 enters each branch of
       * an atomic group and takes reaching its end as "yes", not looking at what follows the
       * group: /{0,2}(?>|a)..  is made /{0,2}+(?>|a).. and does not match "/m".
       */
      refuse("an atomic group with alternatives after a repeat");
    }
    leadingBeforeItem = closed.leading;
    size += 3;
    long groupSize = size - closed.sizeAtOpen;
    if (closed.kind == Kind.LOOKAHEAD || closed.kind == Kind.LOOKBEHIND) {
      // An assertion can be repeated in PCRE2 (and in Java) but matches nothing. Inside a
      // lookbehind PCRE2 ignores a lookahead's quantifier but not a nested lookbehind's.
      finishItem(closed.outStart, 0, 0, Shape.OTHER, null);
      last.lookahead = closed.kind == Kind.LOOKAHEAD;
      // PCRE2 looks past negative lookaheads and lookbehinds for an asserted first code unit.
      leading = closed.leading && !(closed.kind == Kind.LOOKAHEAD && out.charAt(closed.outStart + 2) == '=');
    } else {
      finishItem(closed.outStart, closed.groupLength, closed.groupMin, Shape.GROUP, null);
      leading = false;
    }
    last.size = groupSize;
    last.copied = true;
    last.hasAlternatives = closed.branches > 1;
    last.firstGroup = closed.firstGroup;
  }

  boolean inLookbehind() {
    for (Frame f = frame; f != null; f = f.parent) {
      if (f.kind == Kind.LOOKBEHIND) {
        return true;
      }
    }
    return false;
  }

  void groupOpen() throws PcreSyntaxException {
    int n = in.pattern.length();
    if (in.pos + 1 < n && in.pattern.charAt(in.pos + 1) == '*') {
      throw PcreVerbs.refusal(in);
    }
    if (in.pos + 1 >= n || in.pattern.charAt(in.pos + 1) != '?') {
      capturingGroup();
      open("(", Kind.GROUP, 1);
      return;
    }
    if (in.pos + 2 >= n) {
      throw in.error("missing closing parenthesis");
    }
    char k = in.pattern.charAt(in.pos + 2);
    char next = in.pos + 3 < n ? in.pattern.charAt(in.pos + 3) : 0;
    switch (k) {
      case '#' -> comment();
      case ':' -> {
        int at = in.pos;
        open("(?:", Kind.GROUP, 3);
        frame.maxBranches = branchLimits.getOrDefault(at, 0);
      }
      case '>' -> open("(?>", Kind.ATOMIC, 3);
      case '=', '!' -> open("(?" + k, Kind.LOOKAHEAD, 3);
      case '<' -> {
        if (next == '=' || next == '!') {
          open("(?<" + next, Kind.LOOKBEHIND, 4);
        } else if (next == '*') {
          throw in.unsupported("a non-atomic assertion", in.pos, in.pos + 4, "(?<=", null);
        } else {
          in.pos += 3;
          namedGroup('>');
        }
      }
      case '\'' -> {
        in.pos += 3;
        namedGroup('\'');
      }
      case 'P' -> {
        if (next == '<') {
          in.pos += 4;
          namedGroup('>');
        } else if (next == '=') {
          in.pos += 4;
          namedReference(')');
        } else if (next == '>') {
          throw PcreCalls.named(in, in.pos + 4);
        } else {
          throw in.error("unrecognized character after (?P");
        }
      }
      case '*' -> throw in.unsupported("a non-atomic assertion", in.pos, in.pos + 3, "(?=", null);
      // Not read on: a name may stand in two of its branches, which a plain group would refuse.
      case '|' -> throw in.unsupported("a branch reset group");
      case '(' -> throw conditional();
      case 'C' -> throw PcreCalls.callout(in);
      case 'R' -> throw PcreCalls.recursion(in);
      case '&' -> throw PcreCalls.named(in, in.pos + 3);
      default -> {
        if (PcreLexer.isDigit(k) || ((k == '-' || k == '+') && PcreLexer.isDigit(next))) {
          throw PcreCalls.numbered(in, groups);
        }
        optionSetting();
      }
    }
  }

  /**
   * The refusal of the conditional group at {@code in.pos}. Its stand-in is a plain group: an
   * assertion condition stays as the group's first item, any other condition goes (a group
   * number or name in it is checked at the end).
   */
  private PcreSyntaxException conditional() {
    String p = in.pattern;
    int condition = in.pos + 3;
    if (condition < p.length() && (p.charAt(condition) == '?' || p.charAt(condition) == '*')) {
      return in.unsupported("a conditional group", new PcreSyntaxException.StandIn(in.pos, in.pos + 2, "(?:", null, 2));
    }
    int close = p.indexOf(')', condition);
    if (close < 0) {
      return in.unsupported("a conditional group");
    }
    String text = p.substring(condition, close);
    Object reference = null;
    if (text.matches("[0-9]{1,9}")) {
      reference = Integer.valueOf(text);
    } else if (text.matches("<\\w+>|'\\w+'")) {
      reference = text.substring(1, text.length() - 1);
    }
    return in.unsupported("a conditional group",
        new PcreSyntaxException.StandIn(in.pos, close + 1, "(?:", reference, text.equals("DEFINE") ? 1 : 2));
  }

  /** Numbers a capturing group that is about to open. */
  void capturingGroup() throws PcreSyntaxException {
    groups++;
    for (Frame f = frame; f != null; f = f.parent) {
      if (f.kind.keepsCaptures()) {
        capturesLeak(groups);
        return;
      }
    }
  }

  /** {@code (?#...)}: nothing at all, not even for a following quantifier. */
  void comment() throws PcreSyntaxException {
    int close = in.pattern.indexOf(')', in.pos + 3);
    if (close < 0) {
      in.pos = in.pattern.length();
      throw in.error("missing ) after (?# comment");
    }
    in.pos = close + 1;
  }

  /** A capturing group with a name; PCRE2 numbers it like any other and Java needs no name. */
  void namedGroup(char terminator) throws PcreSyntaxException {
    String name = in.groupName(terminator);
    capturingGroup();
    if (!namesComplete && names.putIfAbsent(name, groups) != null) {
      throw in.error("two named subpatterns have the same name (PCRE2_DUPNAMES not set)");
    }
    open("(", Kind.GROUP, 0);
  }


  /**
   * {@code (?i)}, {@code (?-s:...)}, {@code (?^)}: i, m and s are tracked; x, n, J and U cannot be
   * expressed and are refused when set (unsetting them changes nothing, they are never on).
   */
  void optionSetting() throws PcreSyntaxException {
    int n = in.pattern.length();
    int i = in.pos + 2;
    boolean caseless = options.caseless();
    boolean multiline = options.multiline();
    boolean dotall = options.dotall();
    boolean hyphenAllowed = true;
    boolean unset = false;
    if (i < n && in.pattern.charAt(i) == '^') {
      // (?^) unsets i, m, n, s and x, and no '-' may follow.
      caseless = false;
      multiline = false;
      dotall = false;
      hyphenAllowed = false;
      i++;
    }
    while (i < n && in.pattern.charAt(i) != ')' && in.pattern.charAt(i) != ':') {
      char f = in.pattern.charAt(i);
      switch (f) {
        case '-' -> {
          if (!hyphenAllowed) {
            in.pos = i;
            throw in.error("invalid hyphen in option setting");
          }
          unset = true;
          hyphenAllowed = false;
        }
        case 'i' -> caseless = !unset;
        case 'm' -> multiline = !unset;
        case 's' -> dotall = !unset;
        case 'x', 'n', 'J', 'U' -> {
          if (!unset) {
            in.pos = i;
            // Only U is read on without it: x changes how the rest reads, n and J which groups count.
            throw f == 'U' ? in.unsupported("the (?U) option", i, i + 1, "", null)
                : in.unsupported("the (?" + f + ") option");
          }
        }
        default -> {
          in.pos = i;
          throw in.error("unrecognized character after (? or (?-");
        }
      }
      i++;
    }
    if (i >= n) {
      in.pos = i;
      throw in.error("missing closing parenthesis");
    }
    Options changed = new Options(caseless, multiline, dotall);
    if (in.pattern.charAt(i) == ':') {
      open("(?:", Kind.GROUP, i + 1 - in.pos);
      options = changed;
    } else {
      // Lasts to the end of the enclosing group. Not an item: a quantifier after it is an error.
      options = changed;
      in.pos = i + 1;
      repeatable = false;
      quantified = false;
    }
  }

  // ---- Backreferences ----
}
