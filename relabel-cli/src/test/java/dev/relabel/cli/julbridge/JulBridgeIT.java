package dev.relabel.cli.julbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded relabel.jar's loggers: JNA and JLine call the bridge, never java.util.logging; every
 * member they call exists in the jar's bridge; and a record is printed exactly when
 * java.util.logging would print it. (That a run through the launcher starts no java.util.logging:
 * {@code LauncherIT}.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JulBridgeIT {
  private static final String BRIDGE = "dev/relabel/cli/julbridge/";

  @TempDir
  Path dir;

  private static Path jar() {
    String value = System.getProperty("relabel.jar");
    assertTrue(value != null && !value.isEmpty(), "system property relabel.jar is not set (run by failsafe)");
    return Path.of(value);
  }

  /** A method or field one class of the jar refers to. */
  record Member(String owner, String name, String descriptor, boolean field, String from) {}

  @Test
  void everyLoggingMemberTheJarCallsIsTheBridgesAndExists() throws Exception {
    List<Member> members = new ArrayList<>();
    TreeSet<String> julUsers = new TreeSet<>();
    try (JarFile jar = new JarFile(jar().toFile())) {
      for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        if (!entry.getName().endsWith(".class") || entry.getName().startsWith(BRIDGE)
            || entry.getName().startsWith("META-INF/versions/")) {
          continue;
        }
        byte[] bytes = jar.getInputStream(entry).readAllBytes();
        for (String name : classNames(bytes)) {
          if (name.startsWith("java/util/logging/")) {
            julUsers.add(entry.getName() + " -> " + name);
          }
        }
        for (Member member : references(bytes, entry.getName())) {
          if (member.owner().startsWith(BRIDGE)) {
            members.add(member);
          }
        }
      }
    }
    assertEquals(new TreeSet<>(), julUsers, "classes of the jar that still name java.util.logging");
    // JNA's Native, NativeLibrary and Structure, JLine's Log: the relocation took effect.
    assertTrue(members.stream().anyMatch(m -> m.from().equals("com/sun/jna/Native.class")), members::toString);
    assertTrue(members.stream().anyMatch(m -> m.from().equals("org/jline/utils/Log.class")), members::toString);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar().toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      List<String> missing = new ArrayList<>();
      for (Member member : members) {
        if (!exists(loader.loadClass(member.owner().replace('/', '.')), member, loader)) {
          missing.add(member.from() + " -> " + member.owner() + "." + member.name() + member.descriptor());
        }
      }
      assertEquals(List.of(), missing, "members the jar calls that its bridge lacks");
    }
  }

  private static boolean exists(Class<?> owner, Member member, ClassLoader loader) {
    if (member.field()) {
      for (Field field : owner.getFields()) {
        if (field.getName().equals(member.name())
            && MethodType.methodType(field.getType()).toMethodDescriptorString().equals("()" + member.descriptor())) {
          return true;
        }
      }
      return false;
    }
    MethodType wanted = MethodType.fromMethodDescriptorString(member.descriptor(), loader);
    if (member.name().equals("<init>")) {
      for (Constructor<?> constructor : owner.getConstructors()) {
        if (MethodType.methodType(void.class, constructor.getParameterTypes()).equals(wanted)) {
          return true;
        }
      }
      return false;
    }
    for (Method method : owner.getMethods()) {
      if (method.getName().equals(member.name()) && Modifier.isPublic(method.getModifiers())
          && MethodType.methodType(method.getReturnType(), method.getParameterTypes()).equals(wanted)) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aRecordIsPrintedWhereJavaUtilLoggingsDefaultPrintsIt() throws Exception {
    String err = probe();
    assertTrue(err.contains("SEVERE: at SEVERE, loggable"), err);
    assertTrue(err.contains("WARNING: at WARNING, loggable"), err);
    assertTrue(err.contains("INFO: at INFO, loggable"), err);
    assertTrue(!err.contains("at CONFIG") && !err.contains("at FINE") && !err.contains("finest()"), err);
    assertTrue(err.contains("WARNING: parameter one"), err);
    assertTrue(err.contains("WARNING: parameters one two"), err);
    assertTrue(err.contains("WARNING: thrown") && err.contains("java.lang.IllegalStateException: the cause"), err);
    assertTrue(err.contains("WARNING: a record"), err);
    assertTrue(err.contains("WARNING: warning()"), err);
  }

  @Test
  void aUsersLoggingConfigurationDecides() throws Exception {
    Path config = Files.writeString(dir.resolve("logging.properties"),
        ".level = ALL\nhandlers = java.util.logging.ConsoleHandler\njava.util.logging.ConsoleHandler.level = ALL\n"
            + "probe.level = FINE\n");
    String err = probe("-Djava.util.logging.config.file=" + config);
    assertTrue(err.contains("WARNING: at WARNING, loggable"), err);
    assertTrue(err.contains("FINE: at FINE, loggable"), err);
    assertTrue(err.contains("FINE: at CONFIG, loggable"), err);
    assertTrue(!err.contains("at FINER") && !err.contains("finest()"), err);
  }

  /** The standard error of {@link JulBridgeProbe} run on the jar's bridge. */
  private String probe(String... jvmOptions) throws IOException, InterruptedException {
    Path probes = Path.of(JulBridgeProbe.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-cp", jar() + ":" + probes, JulBridgeProbe.class.getName()));
    Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), err);
    return err;
  }

  /** The class names a class file's constant pool holds (its CONSTANT_Class entries). */
  private static List<String> classNames(byte[] classFile) throws IOException {
    ConstantPool pool = ConstantPool.read(classFile);
    List<String> names = new ArrayList<>();
    for (int i = 1; i < pool.tags.length; i++) {
      if (pool.tags[i] == 7) {
        names.add(pool.utf8[pool.first[i]]);
      }
    }
    return names;
  }

  /** The fields and methods a class file refers to. */
  private static List<Member> references(byte[] classFile, String from) throws IOException {
    ConstantPool pool = ConstantPool.read(classFile);
    List<Member> members = new ArrayList<>();
    for (int i = 1; i < pool.tags.length; i++) {
      if (pool.tags[i] == 9 || pool.tags[i] == 10 || pool.tags[i] == 11) {
        String owner = pool.utf8[pool.first[pool.first[i]]];
        int nameAndType = pool.second[i];
        members.add(new Member(owner, pool.utf8[pool.first[nameAndType]], pool.utf8[pool.second[nameAndType]],
            pool.tags[i] == 9, from));
      }
    }
    return members;
  }

  /** A class file's constant pool: each entry's tag, its text (UTF8) or its one or two indexes. */
  private static final class ConstantPool {
    final int[] tags;
    final String[] utf8;
    final int[] first;
    final int[] second;

    private ConstantPool(int count) {
      tags = new int[count];
      utf8 = new String[count];
      first = new int[count];
      second = new int[count];
    }

    static ConstantPool read(byte[] classFile) throws IOException {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
      assertEquals(0xCAFEBABE, in.readInt(), "not a class file");
      in.readUnsignedShort();
      in.readUnsignedShort();
      ConstantPool pool = new ConstantPool(in.readUnsignedShort());
      for (int i = 1; i < pool.tags.length; i++) {
        int tag = in.readUnsignedByte();
        pool.tags[i] = tag;
        switch (tag) {
          case 1 -> pool.utf8[i] = in.readUTF();
          case 3, 4 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++;
          }
          case 7, 8, 16, 19, 20 -> pool.first[i] = in.readUnsignedShort();
          case 9, 10, 11, 12, 17, 18 -> {
            pool.first[i] = in.readUnsignedShort();
            pool.second[i] = in.readUnsignedShort();
          }
          case 15 -> {
            in.readUnsignedByte();
            pool.first[i] = in.readUnsignedShort();
          }
          default -> throw new IOException("constant pool tag " + tag + " at " + i);
        }
      }
      return pool;
    }
  }
}
