package dev.relabel.nativeio;

import java.util.List;

/**
 * {@link Kernel} on the running kernel: each call goes straight to {@link NativeIo}'s binding, once
 * a {@link WarmUp} begun has ended.
 */
final class LinuxKernel implements Kernel {
  static final LinuxKernel INSTANCE = new LinuxKernel();

  private LinuxKernel() {}

  @Override
  public int openDirectory(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.openDirectory(dirfd, name, path);
  }

  @Override
  public int openForReading(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.openForReading(dirfd, name, path);
  }

  @Override
  public int openDirectoryOnMount(int dirfd, byte[] name) {
    WarmUp.await();
    return NativeIo.openDirectoryOnMount(dirfd, name);
  }

  @Override
  public void remove(int dirfd, byte[] name, boolean directory, byte[] path) throws NativeIoException {
    WarmUp.await();
    NativeIo.remove(dirfd, name, directory, path);
  }

  @Override
  public void close(int fd) {
    WarmUp.await();
    NativeIo.closeQuietly(fd);
  }

  @Override
  public List<DirEntry> readDirectory(int fd, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.readDirectory(fd, path);
  }

  @Override
  public List<DirEntry> readDirectoryAhead(int fd, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.readDirectoryAhead(fd, path);
  }

  @Override
  public FileStat stat(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.stat(dirfd, name, path);
  }

  @Override
  public FileStat lstat(byte[] path) throws NativeIoException {
    WarmUp.await();
    if (path.length == 0) {
      throw NativeIoException.of("statx", path, Errno.ENOENT);
    }
    return NativeIo.stat(AT_FDCWD, Kernel.nul(path), path);
  }

  @Override
  public int openSearchOnly(byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.openSearchOnly(path);
  }

  @Override
  public byte[] realPath(byte[] path) throws NativeIoException {
    WarmUp.await();
    if (path.length == 0) {
      throw NativeIoException.of("realpath", path, Errno.ENOENT);
    }
    return NativeIo.realPath(path);
  }

  @Override
  public long filesystemType(int fd, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.filesystemType(fd, path);
  }

  @Override
  public long filesystemTypeAt(byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.filesystemTypeAt(path);
  }

  @Override
  public long inodesInUse(byte[] path, byte[] shown) throws NativeIoException {
    WarmUp.await();
    return NativeIo.inodesInUse(path, shown);
  }

  @Override
  public byte[] getLabel(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.getLabel(dirfd, name, path);
  }

  @Override
  public void setLabel(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException {
    WarmUp.await();
    NativeIo.setLabel(dirfd, name, value, path);
  }

  @Override
  public byte[] getDigest(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.getDigest(dirfd, name, path);
  }

  @Override
  public void setDigest(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException {
    WarmUp.await();
    NativeIo.setDigest(dirfd, name, value, path);
  }

  @Override
  public void sendDatagram(byte[] socketPath, byte[] message) throws NativeIoException {
    WarmUp.await();
    NativeIo.sendDatagram(socketPath, message);
  }

  @Override
  public boolean isTerminal(int fd) {
    WarmUp.await();
    return NativeIo.isTerminal(fd);
  }

  @Override
  public OpenedStat statOpened(int fd, byte[] path) throws NativeIoException {
    WarmUp.await();
    return NativeIo.statOpened(fd, path);
  }

  @Override
  public void bindMount(byte[] source, byte[] target) throws NativeIoException {
    WarmUp.await();
    NativeIo.bindMount(source, target);
  }

  @Override
  public void detachMount(byte[] target) throws NativeIoException {
    WarmUp.await();
    NativeIo.detachMount(target);
  }

  @Override
  public void syncAll() {
    WarmUp.await();
    NativeIo.syncAll();
  }

  @Override
  public boolean usesXattrAt() {
    WarmUp.await();
    return NativeIo.usesXattrAt();
  }
}
