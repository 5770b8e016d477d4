#pragma once
// Handing freed memory back to the system.

namespace attnlab {

// Returns the allocator's free pages to the system (glibc: malloc_trim(0); elsewhere
// nothing). Training keeps large blocks in the heap on purpose (setThreadCount tunes
// glibc so that per-batch tensors are not unmapped and faulted in again every batch),
// so after a large one-off allocation (a PDF export builds its file in two 16 MB
// buffers) the heap keeps those pages resident. Called after each epoch and after
// each export: the soak test saw resident memory step up by ~1 MB at every PDF export
// without it.
void releaseFreeMemory();

}  // namespace attnlab
