package dev.relabel.nativeio;

import java.util.Optional;

/**
 * What one {@code statx} says of an open descriptor: its status, and whether it is the root of a
 * mount ({@code STATX_ATTR_MOUNT_ROOT}).
 *
 * @param mountRoot empty where the kernel cannot tell (before Linux 5.8: {@code stx_attributes_mask}
 *     lacks the bit)
 */
public record OpenedStat(FileStat stat, Optional<Boolean> mountRoot) {}
