package dev.relabel.walk;

import java.io.IOException;
import java.util.List;

/**
 * A {@link FileTree} that forwards to another and calls a hook before every operation, so a test
 * can make one entry fail, or look at the process (its open descriptors, say) while the walk runs.
 */
final class HookedFileTree implements FileTree {
  /** What is about to happen. {@code name} is empty for the directory itself; may throw to fail the call. */
  @FunctionalInterface
  interface Hook {
    void before(String operation, byte[] name, byte[] path) throws IOException;
  }

  private final FileTree tree;
  private final Hook hook;

  HookedFileTree(FileTree tree, Hook hook) {
    this.tree = tree;
    this.hook = hook;
  }

  @Override
  public Directory open(byte[] path) throws IOException {
    hook.before("open", new byte[0], path);
    return new HookedDirectory(tree.open(path));
  }

  @Override
  public long filesystemTypeAt(byte[] path) throws IOException {
    hook.before("filesystemTypeAt", new byte[0], path);
    return tree.filesystemTypeAt(path);
  }

  private final class HookedDirectory implements Directory {
    private final Directory directory;

    HookedDirectory(Directory directory) {
      this.directory = directory;
    }

    @Override
    public List<Entry> entries() throws IOException {
      hook.before("entries", new byte[0], new byte[0]);
      return directory.entries();
    }

    @Override
    public Directory openChild(byte[] name, byte[] pathForErrors) throws IOException {
      hook.before("openChild", name, pathForErrors);
      return new HookedDirectory(directory.openChild(name, pathForErrors));
    }

    @Override
    public Directory openChildOnMount(byte[] name) throws IOException {
      hook.before("openChildOnMount", name, new byte[0]);
      Directory child = directory.openChildOnMount(name);
      return child == null ? null : new HookedDirectory(child);
    }

    @Override
    public Status status(byte[] name, byte[] pathForErrors) throws IOException {
      hook.before("status", name, pathForErrors);
      return directory.status(name, pathForErrors);
    }

    @Override
    public byte[] label(byte[] name, byte[] pathForErrors) throws IOException {
      hook.before("label", name, pathForErrors);
      return directory.label(name, pathForErrors);
    }

    @Override
    public void setLabel(byte[] name, byte[] label, byte[] pathForErrors) throws IOException {
      hook.before("setLabel", name, pathForErrors);
      directory.setLabel(name, label, pathForErrors);
    }

    @Override
    public byte[] digest(byte[] name, byte[] pathForErrors) throws IOException {
      hook.before("digest", name, pathForErrors);
      return directory.digest(name, pathForErrors);
    }

    @Override
    public void setDigest(byte[] name, byte[] digest, byte[] pathForErrors) throws IOException {
      hook.before("setDigest", name, pathForErrors);
      directory.setDigest(name, digest, pathForErrors);
    }

    @Override
    public long filesystemType(byte[] pathForErrors) throws IOException {
      return directory.filesystemType(pathForErrors);
    }

    @Override
    public void close() {
      directory.close();
    }
  }
}
