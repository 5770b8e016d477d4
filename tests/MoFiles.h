#pragma once
// A GNU gettext .mo file written byte by byte, for the tests that read catalogues.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attnlab::test {

using MoEntries = std::vector<std::pair<std::string, std::string>>;  // msgid, msgstr

inline void put32(std::string& out, std::uint32_t v, bool big) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (big ? 8 * (3 - k) : 8 * k)) & 0xFF);
}

// The layout of the GNU gettext manual: 28-byte header (magic, revision, N, O, T, hash size 0,
// hash offset), the originals' table at O = 28, the translations' at T = 28 + 8N, then the
// strings, each followed by a NUL.
inline std::string moFile(const MoEntries& entries, bool big = false, std::uint32_t revision = 0) {
    const auto n = static_cast<std::uint32_t>(entries.size());
    const std::uint32_t originals = 28, translations = 28 + 8 * n;
    std::string strings;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> o, t;  // (length, offset)
    const std::uint32_t base = 28 + 16 * n;
    for (const auto& e : entries) {
        o.emplace_back(static_cast<std::uint32_t>(e.first.size()), base + static_cast<std::uint32_t>(strings.size()));
        strings += e.first;
        strings += '\0';
    }
    for (const auto& e : entries) {
        t.emplace_back(static_cast<std::uint32_t>(e.second.size()), base + static_cast<std::uint32_t>(strings.size()));
        strings += e.second;
        strings += '\0';
    }
    std::string out;
    put32(out, 0x950412de, big);
    put32(out, revision, big);
    put32(out, n, big);
    put32(out, originals, big);
    put32(out, translations, big);
    put32(out, 0, big);
    put32(out, base, big);
    for (const auto& [len, off] : o) {
        put32(out, len, big);
        put32(out, off, big);
    }
    for (const auto& [len, off] : t) {
        put32(out, len, big);
        put32(out, off, big);
    }
    return out + strings;
}

}  // namespace attnlab::test
