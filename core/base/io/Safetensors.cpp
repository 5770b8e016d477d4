#include "Safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include <nlohmann/json.hpp>

#include "FileUtil.h"
#include "base/InputError.h"

namespace attnlab {

// Tensor bytes are copied with memcpy, which is only the file's little-endian IEEE 754 layout here.
static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "F32 must be IEEE 754 binary32");
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "safetensors I/O assumes a little-endian machine");
#else
#error "cannot tell the byte order; safetensors I/O assumes a little-endian machine"
#endif

namespace {

using Json = nlohmann::ordered_json;  // keeps the header's order for tensors that share an offset

constexpr const char* kMetadataKey = "__metadata__";
constexpr int kMaxJsonDepth = 8;  // a valid header nests 3 deep; deeper is garbage or an attack

// Tensor names come from the file: keep error messages to one printable line.
std::string printable(const std::string& s) {
    constexpr std::size_t kMaxShown = 80;
    std::string out = "'";
    for (std::size_t i = 0; i < s.size() && i < kMaxShown; ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    if (s.size() > kMaxShown) out += "...";
    return out + "'";
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

// Number of elements, or -1 if a dimension is negative or the byte size would overflow int64.
std::int64_t elementCount(const std::vector<std::int64_t>& shape) {
    constexpr std::int64_t kLimit = std::numeric_limits<std::int64_t>::max() / 4;
    std::int64_t count = 1;
    for (std::int64_t d : shape) {
        if (d < 0) return -1;
        if (d != 0 && count > kLimit / d) return -1;
        count *= d;
    }
    return count;
}

// A non-negative JSON integer, or false.
bool unsignedValue(const Json& j, std::uint64_t& out) {
    if (j.is_number_unsigned()) {
        out = j.get<std::uint64_t>();
        return true;
    }
    if (j.is_number_integer() && j.get<std::int64_t>() >= 0) {
        out = static_cast<std::uint64_t>(j.get<std::int64_t>());
        return true;
    }
    return false;
}

struct Entry {
    std::string name;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::string dtype = "F32";
    bool skipped = false;
};

// IEEE 754 binary16 and bfloat16 to binary32, exactly (every half value is a float).
float safetensorsHalfToFloat(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu, bits = 0;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);  // infinity, NaN
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;  // zero
    } else {  // subnormal: normalize
        exponent = 113;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --exponent;
        }
        bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
float safetensorsBf16ToFloat(std::uint16_t h) {
    const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

Entry parseEntry(const std::string& key, const Json& value, std::uint64_t bufferSize, const std::string& file,
                 const SafetensorsOptions& options) {
    const std::string tensor = "tensor " + printable(key);
    auto fail = [&](const std::string& reason) { throw ModelFileError(file, tensor + ": " + reason); };
    if (!value.is_object()) fail("entry is not a JSON object");

    auto dtype = value.find("dtype");
    if (dtype == value.end()) fail("missing dtype");
    if (!dtype->is_string()) fail("dtype is not a string");
    const std::string& type = dtype->get_ref<const std::string&>();
    Entry e;
    e.name = key;
    e.skipped = options.skip && options.skip(key);
    if (!e.skipped) {
        if (options.halfPrecision) {
            if (type != "F32" && type != "F16" && type != "BF16")
                fail("unsupported dtype " + printable(type) + " (F32, F16 and BF16 are supported)");
        } else if (type != "F32") {
            fail("unsupported dtype " + printable(type) + " (only F32 is supported)");
        }
    }
    e.dtype = type;
    const std::uint64_t width = e.skipped ? 0 : type == "F32" ? 4u : 2u;
    auto shape = value.find("shape");
    if (shape == value.end()) fail("missing shape");
    if (!shape->is_array()) fail("shape is not an array");
    for (const auto& d : *shape) {
        std::uint64_t dim = 0;
        if (!unsignedValue(d, dim)) fail("shape must hold non-negative integers");
        if (dim > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) fail("shape overflows");
        e.shape.push_back(static_cast<std::int64_t>(dim));
    }
    std::int64_t count = elementCount(e.shape);
    if (count < 0) fail("shape " + shapeText(e.shape) + " overflows");

    auto offsets = value.find("data_offsets");
    if (offsets == value.end()) fail("missing data_offsets");
    if (!offsets->is_array() || offsets->size() != 2 || !unsignedValue((*offsets)[0], e.begin) ||
        !unsignedValue((*offsets)[1], e.end))
        fail("data_offsets is not [begin, end] with non-negative integers");
    if (e.begin > e.end || e.end > bufferSize)
        fail("data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "] outside the " +
             std::to_string(bufferSize) + "-byte data buffer");
    if (width != 0 && e.end - e.begin != static_cast<std::uint64_t>(count) * width)
        fail("data_offsets span " + std::to_string(e.end - e.begin) + " bytes but shape " + shapeText(e.shape) +
             " needs " + std::to_string(static_cast<std::uint64_t>(count) * width));
    return e;
}

std::map<std::string, std::string> parseMetadata(const Json& value, const std::string& file) {
    std::map<std::string, std::string> metadata;
    if (!value.is_object()) throw ModelFileError(file, "__metadata__ is not a JSON object");
    for (const auto& [k, v] : value.items()) {
        if (!v.is_string()) throw ModelFileError(file, "__metadata__ value " + printable(k) + " is not a string");
        metadata[k] = v.get<std::string>();
    }
    return metadata;
}

Json parseHeader(std::string::const_iterator begin, std::string::const_iterator end, const std::string& file) {
    struct TooDeep {};
    Json::parser_callback_t limitDepth = [](int depth, Json::parse_event_t, Json&) {
        if (depth > kMaxJsonDepth) throw TooDeep{};
        return true;
    };
    try {
        return Json::parse(begin, end, limitDepth);
    } catch (const Json::parse_error& e) {
        throw ModelFileError(file, "invalid header JSON (at byte " + std::to_string(e.byte) + " of the header)");
    } catch (const Json::exception&) {
        throw ModelFileError(file, "invalid header JSON");
    } catch (const TooDeep&) {
        throw ModelFileError(file, "invalid header JSON (nested more than " + std::to_string(kMaxJsonDepth) +
                                       " levels deep)");
    }
}

bool startsWith(std::string_view bytes, std::string_view magic) { return bytes.substr(0, magic.size()) == magic; }

// Text: valid UTF-8 (a sequence cut at the end of `head` counts), no NUL and no control
// character other than tab, newline, carriage return, form feed and escape.
bool looksLikeText(std::string_view head) {
    if (head.empty()) return false;
    std::size_t i = 0;
    while (i < head.size()) {
        const auto c = static_cast<unsigned char>(head[i]);
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) || c == 0x7f) return false;
            ++i;
            continue;
        }
        const std::size_t length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (length == 0) return false;
        for (std::size_t k = 1; k < length; ++k) {
            if (i + k >= head.size()) return true;  // cut short by the sample
            if ((static_cast<unsigned char>(head[i + k]) & 0xc0) != 0x80) return false;
        }
        i += length;
    }
    return true;
}

std::string lowercase(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string describeText(std::string_view head) {
    if (startsWith(head, "\xef\xbb\xbf")) head.remove_prefix(3);
    const std::size_t first = head.find_first_not_of(" \t\r\n\f");
    if (first == std::string_view::npos) return "a text file of blanks";
    const std::string start = lowercase(head.substr(first, 200));
    if (startsWith(start, "<svg") || (startsWith(start, "<?xml") && lowercase(head).find("<svg") != std::string::npos))
        return "an SVG image";
    if (startsWith(start, "<!doctype html") || startsWith(start, "<html")) return "an HTML page";
    if (startsWith(start, "<?xml")) return "an XML file";
    if (startsWith(start, "{") || startsWith(start, "[")) return "a JSON file";
    if (startsWith(start, "%!ps")) return "a PostScript file";
    const std::string_view line = head.substr(0, head.find('\n'));
    if (line.find('\t') != std::string_view::npos) return "a tab-separated text file, such as a corpus";
    if (lowercase(head).find("msgid \"") != std::string::npos) return "a gettext .po catalogue";
    return "a text file";
}

}  // namespace

std::string describeFileKind(const std::string& bytes) {
    const std::string_view b(bytes);
    if (startsWith(b, "\x89PNG\r\n\x1a\n")) return "a PNG image";
    if (startsWith(b, "\xff\xd8\xff")) return "a JPEG image";
    if (startsWith(b, "GIF87a") || startsWith(b, "GIF89a")) return "a GIF image";
    if (startsWith(b, "RIFF") && b.substr(8, 4) == "WEBP") return "a WebP image";
    if (startsWith(b, "BM") && b.size() >= 26 && b.substr(6, 4) == std::string_view("\0\0\0\0", 4))
        return "a BMP image";
    if (startsWith(b, std::string_view("II*\0", 4)) || startsWith(b, std::string_view("MM\0*", 4))) return "a TIFF image";
    if (startsWith(b, "%PDF-")) return "a PDF document";
    if (startsWith(b, "\x1f\x8b")) return "a gzip-compressed file";
    if (startsWith(b, "PK\x03\x04") || startsWith(b, "PK\x05\x06")) return "a ZIP archive, such as a PyTorch .pt file";
    if (b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x80 && b[1] >= 2 && b[1] <= 5)
        return "a Python pickle, such as an old PyTorch .pt file";
    if (startsWith(b, "\x93NUMPY")) return "a NumPy .npy array";
    if (startsWith(b, "\x89HDF\r\n\x1a\n")) return "an HDF5 file, such as a Keras model";
    if (startsWith(b, "\x7f" "ELF")) return "an ELF program";
    if (startsWith(b, "\xde\x12\x04\x95") || startsWith(b, "\x95\x04\x12\xde")) return "a gettext .mo catalogue";
    if (b.size() >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0x08 && b[3] >= 1 && b[3] <= 4)
        return "an IDX data file, such as Fashion-MNIST's";
    if (startsWith(b, "\xfd" "7zXZ") || startsWith(b, "BZh") || startsWith(b, "\x28\xb5\x2f\xfd"))
        return "a compressed file";
    const std::string_view head = b.substr(0, 4096);
    if (looksLikeText(head)) return describeText(head);
    return {};
}

const TensorRecord* SafetensorsContent::find(const std::string& name) const {
    for (const auto& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

namespace {

// The header of a safetensors file's bytes, checked: its metadata, its entries (skipped ones
// included) in buffer order, and where the data buffer starts.
struct SafetensorsLayout {
    std::map<std::string, std::string> metadata;
    std::vector<Entry> entries;
    std::uint64_t bufferStart = 0;
};

SafetensorsLayout parseSafetensorsLayout(std::string_view bytes, const std::string& name, const SafetensorsOptions& options) {
    if (bytes.empty()) throw ModelFileError(name, "not an AttnLab model file (the file is empty)");
    if (bytes.size() < 8)
        throw ModelFileError(name, "not an AttnLab model file (too short (" + std::to_string(bytes.size()) +
                                       " bytes) for a safetensors header)");
    std::uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i) headerLength = (headerLength << 8) | static_cast<unsigned char>(bytes[i]);
    const std::uint64_t available = bytes.size() - 8;
    if (headerLength > available || headerLength > kMaxSafetensorsHeader) {
        const std::string reason =
            headerLength > available
                ? "header length " + std::to_string(headerLength) + " exceeds file size (" +
                      std::to_string(bytes.size()) + " bytes)"
                : "header length " + std::to_string(headerLength) + " exceeds the limit of " +
                      std::to_string(kMaxSafetensorsHeader) + " bytes";
        // A plausible length and the header's '{': a model file cut short (a copy interrupted, a
        // download not finished). Anything else is some other kind of file; say which if the bytes tell.
        if (headerLength <= kMaxSafetensorsHeader && bytes.size() > 8 && bytes[8] == '{')
            throw ModelFileError(name, reason + ": the model file is truncated");
        const std::string kind = describeFileKind(std::string(bytes.substr(0, 65536)));
        throw ModelFileError(name, "not an AttnLab model file (" + (kind.empty() ? reason : "it looks like " + kind) +
                                       ")");
    }

    const std::string headerText(bytes.substr(8, headerLength));
    Json header = parseHeader(headerText.begin(), headerText.end(), name);
    if (!header.is_object()) throw ModelFileError(name, "header is not a JSON object");

    const std::uint64_t bufferStart = 8 + headerLength;
    const std::uint64_t bufferSize = bytes.size() - bufferStart;
    SafetensorsLayout layout;
    layout.bufferStart = bufferStart;
    std::vector<Entry>& entries = layout.entries;
    for (const auto& [key, value] : header.items()) {
        if (key == kMetadataKey)
            layout.metadata = parseMetadata(value, name);
        else
            entries.push_back(parseEntry(key, value, bufferSize, name, options));
    }

    // File order is buffer order; stable so empty tensors keep their header order.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
    const Entry* previous = nullptr;
    for (const auto& e : entries) {
        if (e.begin == e.end) continue;  // occupies no bytes
        if (previous && e.begin < previous->end)
            throw ModelFileError(name, "tensors " + printable(previous->name) + " and " + printable(e.name) +
                                           " overlap in the data buffer");
        previous = &e;
    }
    return layout;
}

}  // namespace

SafetensorsContent parseSafetensors(const std::string& bytes, const std::string& name, const SafetensorsOptions& options) {
    SafetensorsLayout layout = parseSafetensorsLayout(bytes, name, options);
    const std::uint64_t bufferStart = layout.bufferStart;
    const std::vector<Entry>& entries = layout.entries;
    SafetensorsContent content;
    content.metadata = std::move(layout.metadata);
    content.tensors.reserve(entries.size());
    for (const auto& e : entries) {
        if (e.skipped) continue;
        TensorRecord t;
        t.name = e.name;
        t.shape = e.shape;
        t.dtype = e.dtype;
        const char* from = bytes.data() + bufferStart + e.begin;
        if (e.dtype == "F32") {
            t.data.resize(static_cast<std::size_t>((e.end - e.begin) / 4));  // checked against the buffer above
            if (!t.data.empty()) std::memcpy(t.data.data(), from, e.end - e.begin);
        } else {  // F16 or BF16 (parseEntry let nothing else through)
            t.data.resize(static_cast<std::size_t>((e.end - e.begin) / 2));
            const bool bf16 = e.dtype == "BF16";
            for (std::size_t i = 0; i < t.data.size(); ++i) {
                std::uint16_t h;
                std::memcpy(&h, from + 2 * i, 2);
                t.data[i] = bf16 ? safetensorsBf16ToFloat(h) : safetensorsHalfToFloat(h);
            }
        }
        content.tensors.push_back(std::move(t));
    }
    return content;
}

SafetensorsContent readSafetensors(const std::string& path, const SafetensorsOptions& options) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found || path.empty()) throw ModelFileError(path, "no such file");
    if (ec) throw ModelFileError(path, "cannot access: " + ec.message());
    if (fs::is_directory(status)) throw ModelFileError(path, "is a directory");
    if (!fs::is_regular_file(status)) throw ModelFileError(path, "not a regular file");
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) throw ModelFileError(path, "cannot access: " + ec.message());

    std::string bytes;
    try {
        bytes = readFileLimited(path, size);  // a file that grows meanwhile is refused, not read whole
    } catch (const InputError& e) {
        throw ModelFileError(path, e.reason());
    }
    return parseSafetensors(bytes, path, options);
}

namespace {

// The pages of a file mapped copy-on-write (writes stay in this process), unmapped when the last
// owner goes.
struct SafetensorsFileMapping {
    void* base = nullptr;
    std::size_t size = 0;
    ~SafetensorsFileMapping() {
        if (base) munmap(base, size);
    }
};

}  // namespace

MappedSafetensors mapSafetensors(const std::string& path, const SafetensorsOptions& options) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found || path.empty()) throw ModelFileError(path, "no such file");
    if (ec) throw ModelFileError(path, "cannot access: " + ec.message());
    if (fs::is_directory(status)) throw ModelFileError(path, "is a directory");
    if (!fs::is_regular_file(status)) throw ModelFileError(path, "not a regular file");
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw ModelFileError(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (fstat(fd, &st) != 0) {
        const int err = errno;
        close(fd);
        throw ModelFileError(path, std::string("cannot access: ") + std::strerror(err));
    }
    auto mapping = std::make_shared<SafetensorsFileMapping>();
    mapping->size = static_cast<std::size_t>(st.st_size);
    if (mapping->size > 0) {
        void* base = mmap(nullptr, mapping->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (base == MAP_FAILED) {
            const int err = errno;
            close(fd);
            throw ModelFileError(path, std::string("cannot map: ") + std::strerror(err));
        }
        mapping->base = base;
    }
    close(fd);
    const char* bytes = static_cast<const char*>(mapping->base);
    const SafetensorsLayout layout =
        parseSafetensorsLayout(std::string_view(bytes ? bytes : "", mapping->size), path, options);
    MappedSafetensors out;
    out.metadata = layout.metadata;
    out.mapping = mapping;
    out.base = bytes;
    out.size = mapping->size;
    for (const Entry& e : layout.entries) {
        if (e.skipped) continue;
        MappedTensor t;
        t.name = e.name;
        t.shape = e.shape;
        t.dtype = e.dtype;
        t.offset = layout.bufferStart + e.begin;
        t.bytes = e.end - e.begin;
        t.data = bytes + t.offset;
        out.tensors.push_back(std::move(t));
    }
    return out;
}

void safetensorsToFloat(const MappedTensor& tensor, float* out) {
    if (tensor.dtype == "F32") {
        if (tensor.bytes) std::memcpy(out, tensor.data, tensor.bytes);
        return;
    }
    const bool bf16 = tensor.dtype == "BF16";
    const std::size_t n = tensor.bytes / 2;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, tensor.data + 2 * i, 2);
        out[i] = bf16 ? safetensorsBf16ToFloat(h) : safetensorsHalfToFloat(h);
    }
}

std::map<std::string, std::string> peekSafetensorsMetadata(const std::string& path) {
    std::map<std::string, std::string> out;
    try {
        std::ifstream in(path, std::ios::binary);
        unsigned char size[8];
        if (!in.read(reinterpret_cast<char*>(size), 8)) return out;
        std::uint64_t n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | size[i];
        if (n == 0 || n > kMaxSafetensorsHeader) return out;
        std::string header(static_cast<std::size_t>(n), '\0');
        if (!in.read(header.data(), static_cast<std::streamsize>(n))) return out;
        const Json j = Json::parse(header);
        const auto it = j.find("__metadata__");
        if (it == j.end() || !it->is_object()) return out;
        for (auto m = it->begin(); m != it->end(); ++m)
            if (m.value().is_string()) out[m.key()] = m.value().get<std::string>();
    } catch (const std::exception&) {
        out.clear();
    }
    return out;
}

void writeSafetensors(const std::string& path, const SafetensorsContent& content) {
    auto fail = [&](const std::string& reason) { throw std::runtime_error(path + ": " + reason); };

    Json header = Json::object();
    if (!content.metadata.empty()) {
        Json metadata = Json::object();
        for (const auto& [k, v] : content.metadata) metadata[k] = v;
        header[kMetadataKey] = std::move(metadata);
    }
    std::set<std::string> names;
    std::uint64_t offset = 0;
    for (const auto& t : content.tensors) {
        const std::string tensor = "tensor " + printable(t.name);
        if (t.name == kMetadataKey) fail(tensor + ": the name is reserved");
        if (!names.insert(t.name).second) fail(tensor + ": the name is used twice");
        std::int64_t count = elementCount(t.shape);
        if (count < 0) fail(tensor + ": invalid shape " + shapeText(t.shape));
        if (static_cast<std::uint64_t>(count) != t.data.size())
            fail(tensor + ": " + std::to_string(t.data.size()) + " values do not fill shape " + shapeText(t.shape));
        const std::uint64_t end = offset + t.data.size() * 4u;
        header[t.name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, end}}};
        offset = end;
    }

    std::string headerText;
    try {
        headerText = header.dump();
    } catch (const Json::exception&) {
        fail("tensor names and metadata must be valid UTF-8");
    }
    // The data buffer starts 8-byte aligned, as the reference writer does it.
    headerText.append((8 - headerText.size() % 8) % 8, ' ');

    std::string bytes;
    bytes.reserve(8 + headerText.size() + offset);
    std::uint64_t n = headerText.size();
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((n >> (8 * i)) & 0xffu));
    bytes += headerText;
    for (const auto& t : content.tensors)
        if (!t.data.empty()) bytes.append(reinterpret_cast<const char*>(t.data.data()), t.data.size() * sizeof(float));
    writeFileAtomically(path, bytes);
}

}  // namespace attnlab
