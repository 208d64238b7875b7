package dev.relabel.nativeio;

import java.util.List;

/** {@link Kernel} on the running kernel: each call goes straight to {@link NativeIo}'s binding. */
final class LinuxKernel implements Kernel {
  static final LinuxKernel INSTANCE = new LinuxKernel();

  private LinuxKernel() {}

  @Override
  public int openDirectory(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    return NativeIo.openDirectory(dirfd, name, path);
  }

  @Override
  public void close(int fd) {
    NativeIo.closeQuietly(fd);
  }

  @Override
  public List<DirEntry> readDirectory(int fd, byte[] path) throws NativeIoException {
    return NativeIo.readDirectory(fd, path);
  }

  @Override
  public FileStat stat(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    return NativeIo.stat(dirfd, name, path);
  }

  @Override
  public FileStat lstat(byte[] path) throws NativeIoException {
    if (path.length == 0) {
      throw NativeIoException.of("statx", path, Errno.ENOENT);
    }
    return NativeIo.stat(AT_FDCWD, Kernel.nul(path), path);
  }

  @Override
  public long filesystemType(int fd, byte[] path) throws NativeIoException {
    return NativeIo.filesystemType(fd, path);
  }

  @Override
  public long inodesInUse(byte[] path, byte[] shown) throws NativeIoException {
    return NativeIo.inodesInUse(path, shown);
  }

  @Override
  public byte[] getLabel(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    return NativeIo.getLabel(dirfd, name, path);
  }

  @Override
  public void setLabel(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException {
    NativeIo.setLabel(dirfd, name, value, path);
  }

  @Override
  public byte[] getDigest(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    return NativeIo.getDigest(dirfd, name, path);
  }

  @Override
  public void setDigest(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException {
    NativeIo.setDigest(dirfd, name, value, path);
  }

  @Override
  public void sendDatagram(byte[] socketPath, byte[] message) throws NativeIoException {
    NativeIo.sendDatagram(socketPath, message);
  }

  @Override
  public boolean isTerminal(int fd) {
    return NativeIo.isTerminal(fd);
  }

  @Override
  public void syncAll() {
    NativeIo.syncAll();
  }

  @Override
  public boolean usesXattrAt() {
    return NativeIo.usesXattrAt();
  }
}
