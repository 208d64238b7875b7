package dev.relabel.walk;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * An open directory shared by the task that read it and the subdirectory tasks it forked, each of
 * which needs it only to open its own directory. It closes when the last of them lets go, so a
 * directory holds one descriptor from its reading until its last subdirectory is open: the
 * descriptors held at once follow the depth of the walk, not the width of the tree.
 */
final class SharedDirectory {
  private final FileTree.Directory directory;
  private final AtomicInteger holders = new AtomicInteger(1);

  SharedDirectory(FileTree.Directory directory) {
    this.directory = directory;
  }

  FileTree.Directory directory() {
    return directory;
  }

  void retain() {
    holders.incrementAndGet();
  }

  void release() {
    if (holders.decrementAndGet() == 0) {
      directory.close();
    }
  }
}
