/**
 * Tensors in and out of Apache Arrow without copies: {@link dev.ufunc4j.arrow.ArrowTensors} (the
 * C Data Interface over FFM, in process) and {@link dev.ufunc4j.arrow.ArrowIpc} (Arrow IPC /
 * Feather v2 files, memory-mapped). docs/arrow.md has the type mapping and the lifetimes.
 */
package dev.ufunc4j.arrow;
