#pragma once
// The safetensors container: 8-byte little-endian header length N, N bytes of JSON
// header ({"name": {"dtype", "shape", "data_offsets": [begin, end]}, ...,
// "__metadata__": {string: string}}), then the raw little-endian tensor bytes.
// Plain C++ so that the fuzzers and Python users' files go through the same checks.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

struct TensorRecord {
    std::string name;
    std::vector<std::int64_t> shape;
    std::vector<float> data;  // as F32 (AttnLab writes nothing else; F16 and BF16 converted on load)
    std::string dtype = "F32";  // the dtype the file stored it in
};

struct SafetensorsContent {
    std::vector<TensorRecord> tensors;  // in file order
    std::map<std::string, std::string> metadata;
    const TensorRecord* find(const std::string& name) const;
};

inline constexpr std::uint64_t kMaxSafetensorsHeader = 16u * 1024u * 1024u;

// What a reader accepts beyond AttnLab's own files (F32 only, every tensor read): other programs'
// files, such as Hugging Face's model.safetensors.
struct SafetensorsOptions {
    // Also F16 and BF16 tensors, each value converted exactly to F32 (the records then hold up to
    // twice the bytes the file does); the message for any other dtype names the three.
    bool halfPrecision = false;
    // Tensors left unread (a model's buffers): any dtype, not in `tensors`, but their offsets are
    // still checked (inside the buffer, no overlap).
    std::function<bool(const std::string&)> skip;
};

// Writes atomically: a temp file in the same directory, fsync, then rename. On any
// failure the temp file is removed, any existing file is untouched, and
// std::runtime_error says "FILE: reason".
void writeSafetensors(const std::string& path, const SafetensorsContent& content);

// Throws ModelFileError("FILE: reason") for: a missing/unreadable file, a directory,
// a file shorter than 8 bytes, a header length beyond the file or kMaxSafetensorsHeader
// ("not an AttnLab model file (it looks like a PNG image)" when the bytes say what the file is
// instead, see describeFileKind; a '{' after a plausible length is a truncated model instead),
// invalid JSON, a dtype other than F32, a negative or overflowing shape, offsets out of
// bounds, overlapping or not matching shape * 4 bytes. Never allocates more than the
// file's size.
SafetensorsContent readSafetensors(const std::string& path, const SafetensorsOptions& options = {});
SafetensorsContent parseSafetensors(const std::string& bytes, const std::string& name,
                                    const SafetensorsOptions& options = {});
// A safetensors file memory-mapped (copy-on-write: writing to its pages never changes the file),
// with the same checks as readSafetensors, the tensors located in it and not copied. For large
// files (a Hugging Face model's weights): the pages are read as they are touched and count as the
// process's resident memory only while they are mapped and touched. The file must not be truncated
// while it is mapped (as for any mapped file, reading a page past the new end would kill the process).
struct MappedTensor {
    std::string name;
    std::vector<std::int64_t> shape;
    std::string dtype = "F32";
    std::uint64_t offset = 0;    // from the file's start
    std::uint64_t bytes = 0;
    const char* data = nullptr;  // the first byte, inside the mapping (not aligned unless offset is)
};
struct MappedSafetensors {
    std::vector<MappedTensor> tensors;  // in file order, the skipped ones left out
    std::map<std::string, std::string> metadata;
    std::shared_ptr<void> mapping;      // keeps the pages mapped; copy it to keep them longer
    const char* base = nullptr;         // the file's first byte (page-aligned), nullptr for an empty file
    std::uint64_t size = 0;             // the file's
};
MappedSafetensors mapSafetensors(const std::string& path, const SafetensorsOptions& options = {});
// A mapped tensor's values as F32 (F16 and BF16 converted exactly) into out[bytes / width].
void safetensorsToFloat(const MappedTensor& tensor, float* out);
// Only the header's "__metadata__" (what task a model is for), read without the tensors: the first
// 8 bytes and the header. Empty for a file that is not a safetensors file or has no metadata; never
// throws (the loader says what is wrong with a file).
std::map<std::string, std::string> peekSafetensorsMetadata(const std::string& path);

// What a file that is no model looks like, from its first bytes: "a PNG image", "a JPEG image",
// "a ZIP archive, such as a PyTorch .pt file", "a tab-separated text file, such as a corpus",
// "a text file", ...; empty when they do not tell.
std::string describeFileKind(const std::string& bytes);

}  // namespace attnlab
