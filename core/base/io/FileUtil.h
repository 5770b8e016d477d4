#pragma once
// Small file helpers shared by the corpus readers and the checkpoint writer.
#include <cstdint>
#include <string>

namespace attnlab {

// Reads a whole file, refusing one larger than maxBytes before reading it. Throws
// InputError(path, 0, reason) for a missing, unreadable or too large file and for a
// directory ("FILE: no such file", "FILE: is a directory", "FILE: permission denied").
std::string readFileLimited(const std::string& path, std::uint64_t maxBytes);

// Writes bytes to a temporary file next to path (".NAME.tmp-PID-N"), fsyncs it and
// renames it over path, so readers see the old file or the new one, never half of
// one. On failure the temporary file is removed, an existing file is left untouched
// and std::runtime_error("FILE: reason") is thrown. (For one CLI test only, the environment
// variable ATTNLAB_TEST_SAVE_PAUSE_MS makes it pause halfway through the write; see FileUtil.cpp.)
void writeFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace attnlab
