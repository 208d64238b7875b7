package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.policy.PathAlias;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which names a directory's child may be aliased by: those that end some alias's source, and no other. */
class KeyNormalizerTest {
  private static final String LONG = "a-component-longer-than-sixty-three-characters-which-shares-its-length-bit";

  @Test
  void onlyNamesThatEndAnAliasSourceMayAliasAChild() {
    KeyNormalizer normalizer = new KeyNormalizer(List.of(new PathAlias("/srv/lib64", "/usr/lib")),
        List.of(new PathAlias("/opt/" + LONG, "/opt/short"), new PathAlias("/run/lock", "/var/lock")));
    for (String name : List.of("lib64", "lock", LONG)) {
      assertTrue(normalizer.mayAliasChild(name), name);
    }
    // The same lengths as a source's last component, or both past 63 chars, are not enough.
    for (String name : List.of("lib65", "lick", LONG + "x", LONG.substring(1), "lib6", "l", "locks")) {
      assertFalse(normalizer.mayAliasChild(name), name);
    }
    assertEquals("/usr/lib/x", normalizer.key("/srv/lib64/x"));
  }

  @Test
  void withoutAliasesNoNameMay() {
    KeyNormalizer normalizer = new KeyNormalizer(List.of(), List.of());
    assertFalse(normalizer.mayAliasChild("lib64"));
    assertFalse(normalizer.mayAliasChild(LONG));
  }
}
