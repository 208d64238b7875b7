package dev.relabel.cli;

/**
 * Marks a verb that exits as setfiles.c does under its names (setfiles, restorecon): usage errors
 * and failures exit 255 ({@code exit(-1)}), an unusable policy exits 1.
 */
interface SetfilesStatuses {}
