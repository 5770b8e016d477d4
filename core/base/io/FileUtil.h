#pragma once
// Small file helpers shared by the corpus readers and the checkpoint writer.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace attnlab {

// Reads a whole file, refusing one larger than maxBytes before reading it. Throws
// InputError(path, 0, reason) for a missing, unreadable or too large file and for a
// directory ("FILE: no such file", "FILE: is a directory", "FILE: permission denied").
std::string readFileLimited(const std::string& path, std::uint64_t maxBytes);

// Writes `size` bytes to an open file descriptor; false with errno set on failure.
using FileWriter = std::function<bool(int fd, const char* data, std::size_t size)>;
// The plain writer: write(2) until every byte is written (EINTR retried).
bool writeAllBytes(int fd, const char* data, std::size_t size);

// Writes bytes to a temporary file next to path (".NAME.tmp-PID-N"), fsyncs it and
// renames it over path, so readers see the old file or the new one, never half of
// one. On failure the temporary file is removed, an existing file is left untouched
// and std::runtime_error("FILE: reason") is thrown. `writer` puts the bytes into the temporary
// file (a test passes one that stops halfway, to kill the process in the middle of a save).
void writeFileAtomically(const std::string& path, const std::string& bytes, const FileWriter& writer = writeAllBytes);

}  // namespace attnlab
