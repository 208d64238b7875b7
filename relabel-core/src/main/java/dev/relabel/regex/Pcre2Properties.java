package dev.relabel.regex;

import java.util.Set;

/**
 * The property names PCRE2 10.42 knows in {@code \p{...}} and {@code \P{...}}, as libpcre2-8 10.42
 * holds them (Debian 12's; read from its name table, and each checked by compiling it): Unicode
 * 14's scripts with their four-letter codes, general categories, binary properties, Bidi classes
 * as {@code bidiXX}, and PCRE2's own {@code any}, {@code l&} and {@code xan}/{@code xps}/{@code
 * xsp}/{@code xuc}/{@code xwd}, each as PCRE2 matches names: lower case, without spaces, hyphens
 * or underscores. relabel runs only some of them ({@link PcreLexer#property}); this tells a name
 * it does not run (refused as unsupported) from one PCRE2 refuses too ("unknown property"), so
 * that a policy is refused in libselinux's words. Read only on that path.
 */
final class Pcre2Properties {
  /** Scripts: the names {@code sc:}/{@code scx:} (and {@code script:}, {@code scriptextensions:}) take. */
  private static final String SCRIPTS =
    "adlam adlm aghb ahom anatolianhieroglyphs arab arabic armenian armi armn avestan avst bali "
      + "balinese bamu bamum bass bassavah batak batk beng bengali bhaiksuki bhks bopo bopomofo brah "
      + "brahmi brai braille bugi buginese buhd buhid cakm canadianaboriginal cans cari carian "
      + "caucasianalbanian chakma cham cher cherokee chorasmian chrs common copt coptic cpmn cprt "
      + "cuneiform cypriot cyprominoan cyrillic cyrl deseret deva devanagari diak divesakuru dogr dogra "
      + "dsrt dupl duployan egyp egyptianhieroglyphs elba elbasan elym elymaic ethi ethiopic geor "
      + "georgian glag glagolitic gong gonm goth gothic gran grantha greek grek gujarati gujr "
      + "gunjalagondi gurmukhi guru han hang hangul hani hanifirohingya hano hanunoo hatr hatran hebr "
      + "hebrew hira hiragana hluw hmng hmnp hung imperialaramaic inherited inscriptionalpahlavi "
      + "inscriptionalparthian ital java javanese kaithi kali kana kannada katakana kayahli khar "
      + "kharoshthi khitansmallscript khmer khmr khoj khojki khudawadi kits knda kthi lana lao laoo "
      + "latin latn lepc lepcha limb limbu lina linb lineara linearb lisu lyci lycian lydi lydian "
      + "mahajani mahj maka makasar malayalam mand mandaic mani manichaean marc marchen masaramgondi "
      + "medefaidrin medf meeteimayek mend mendekikakui merc mero meroiticcursive meroitichieroglyphs "
      + "miao mlym modi mong mongolian mro mroo mtei mult multani myanmar mymr nabataean nand "
      + "nandinagari narb nbat newa newtailue nko nkoo nshu nushu nyiakengpuachuehmong ogam ogham "
      + "olchiki olck oldhungarian olditalic oldnortharabian oldpermic oldpersian oldsogdian "
      + "oldsoutharabian oldturkic olduyghur oriya orkh orya osage osge osma osmanya ougr pahawhhmong "
      + "palm palmyrene pauc paucinhau perm phag phagspa phli phlp phnx phoenician plrd prti "
      + "psalterpahlavi qaac qaai rejang rjng rohg runic runr samaritan samr sarb saur saurashtra sgnw "
      + "sharada shavian shaw shrd sidd siddham signwriting sind sinh sinhala sogd sogdian sogo sora "
      + "sorasompeng soyo soyombo sund sundanese sylo sylotinagri syrc syriac tagalog tagb tagbanwa "
      + "taile taitham taiviet takr takri tale talu tamil taml tang tangsa tangut tavt telu telugu tfng "
      + "tglg thaa thaana thai tibetan tibt tifinagh tirh tirhuta tnsa toto ugar ugaritic unknown vai "
      + "vaii vith vithkuqi wancho wara warangciti wcho xpeo xsux yezi yezidi yi yiii zanabazarsquare "
      + "zanb zinh zyyy zzzz ";

  /** The other names: categories, binary properties, Bidi classes, PCRE2's own. */
  private static final String OTHERS =
    "ahex alpha alphabetic any ascii asciihexdigit bidial bidian bidib bidibn bidic bidicontrol "
      + "bidics bidien bidies bidiet bidifsi bidil bidilre bidilri bidilro bidim bidimirrored bidinsm "
      + "bidion bidipdf bidipdi bidir bidirle bidirli bidirlo bidis bidiws c cased caseignorable cc cf "
      + "changeswhencasefolded changeswhencasemapped changeswhenlowercased changeswhentitlecased "
      + "changeswhenuppercased ci cn co cs cwcf cwcm cwl cwt cwu dash defaultignorablecodepoint dep "
      + "deprecated di dia diacritic ebase ecomp emod emoji emojicomponent emojimodifier "
      + "emojimodifierbase emojipresentation epres ext extendedpictographic extender extpict "
      + "graphemebase graphemeextend graphemelink grbase grext grlink hex hexdigit idc idcontinue ideo "
      + "ideographic ids idsb idsbinaryoperator idst idstart idstrinaryoperator joinc joincontrol l l& "
      + "lc ll lm lo loe logicalorderexception lower lowercase lt lu m math mc me mn n nchar nd nl no "
      + "noncharactercodepoint p patsyn patternsyntax patternwhitespace patws pc pcm pd pe pf pi po "
      + "prependedconcatenationmark ps qmark quotationmark radical regionalindicator ri s sc sd "
      + "sentenceterminal sk sm so softdotted space sterm term terminalpunctuation uideo "
      + "unifiedideograph upper uppercase variationselector vs whitespace wspace xan xidc xidcontinue "
      + "xids xidstart xps xsp xuc xwd z zl zp zs ";

  private Pcre2Properties() {}

  /**
   * Whether PCRE2 knows {@code name} (as {@link PcreLexer#property} normalizes it): a name, or
   * {@code PREFIX:VALUE} (or {@code =}) with a script prefix and a script, or {@code bc}/{@code
   * bidiclass} and a Bidi class.
   */
  static boolean known(String name) {
    int colon = name.indexOf(':');
    int equals = name.indexOf('=');
    int split = colon < 0 ? equals : equals < 0 ? colon : Math.min(colon, equals);
    if (split < 0) {
      return Names.ALL.contains(name);
    }
    String value = name.substring(split + 1);
    return switch (name.substring(0, split)) {
      case "sc", "script", "scx", "scriptextensions" -> Names.SCRIPTS.contains(value);
      case "bc", "bidiclass" -> Names.ALL.contains("bidi" + value);
      default -> false;
    };
  }

  /** Every name listed, scripts included. */
  static Set<String> names() {
    return Names.ALL;
  }

  /** Built on first use: only a policy whose property relabel does not run asks. */
  private static final class Names {
    static final Set<String> SCRIPTS = Set.of(Pcre2Properties.SCRIPTS.strip().split(" "));
    static final Set<String> ALL = Set.of((Pcre2Properties.SCRIPTS + OTHERS).strip().split(" "));
  }
}
