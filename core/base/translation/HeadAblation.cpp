#include "HeadAblation.h"

#include <algorithm>
#include <tuple>

#include "base/InputError.h"

namespace attnlab {

namespace {

int kindOrder(MapKind kind) {
    switch (kind) {
    case MapKind::Encoder: return 0;
    case MapKind::Decoder: return 1;
    case MapKind::Cross: return 2;
    }
    return 2;
}

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    const auto last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
}

[[noreturn]] void bad(const std::string& flag, const std::string& entry, const std::string& why) {
    throw ConfigError(flag + ": '" + entry + "' is not KIND:LAYER:HEAD (" + why + ")");
}

// A layer or head number from 1, or `*`; returns it from 0.
std::optional<int> number(const std::string& part, const char* what, const std::string& flag,
                          const std::string& entry) {
    if (part == "*") return std::nullopt;
    if (part.empty() || part.size() > 4 || part.find_first_not_of("0123456789") != std::string::npos)
        bad(flag, entry, std::string(what) + " must be a number from 1 or *, got '" + part + "'");
    const int n = std::stoi(part);
    if (n < 1) bad(flag, entry, std::string(what) == "LAYER" ? "layers count from 1" : "heads count from 1");
    return n - 1;
}

}  // namespace

bool operator==(const HeadId& a, const HeadId& b) {
    return a.kind == b.kind && a.layer == b.layer && a.head == b.head;
}
bool operator!=(const HeadId& a, const HeadId& b) { return !(a == b); }
bool operator<(const HeadId& a, const HeadId& b) {
    return std::make_tuple(kindOrder(a.kind), a.layer, a.head) < std::make_tuple(kindOrder(b.kind), b.layer, b.head);
}

std::string toString(const HeadId& head) {
    return std::string(toString(head.kind)) + ":" + std::to_string(head.layer + 1) + ":" +
           std::to_string(head.head + 1);
}

HeadAblation parseHeadAblation(const std::string& text, const std::string& flag) {
    HeadAblation out;
    if (trimmed(text).empty())
        throw ConfigError(flag + " needs at least one KIND:LAYER:HEAD entry (e.g. cross:*:* or encoder:1:2)");
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string entry = trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        if (entry.empty()) throw ConfigError(flag + ": an empty entry in '" + text + "' (entries are separated by commas)");
        std::vector<std::string> parts;
        std::size_t from = 0;
        for (std::size_t colon; (colon = entry.find(':', from)) != std::string::npos; from = colon + 1)
            parts.push_back(trimmed(entry.substr(from, colon - from)));
        parts.push_back(trimmed(entry.substr(from)));
        if (parts.size() != 3) bad(flag, entry, "three parts separated by colons");
        HeadPattern p;
        p.text = entry;
        if (parts[0] != "*") {
            p.kind = parseMapKind(parts[0]);
            if (!p.kind) bad(flag, entry, "KIND is encoder, decoder, cross or *, got '" + parts[0] + "'");
        }
        p.layer = number(parts[1], "LAYER", flag, entry);
        p.head = number(parts[2], "HEAD", flag, entry);
        out.patterns.push_back(std::move(p));
    }
    return out;
}

std::vector<HeadId> resolveHeads(const HeadAblation& ablation, int layers, int heads, const std::string& flag) {
    std::vector<HeadId> out;
    for (const HeadPattern& p : ablation.patterns) {
        if (p.layer && *p.layer >= layers)
            throw ConfigError(flag + ": layer " + std::to_string(*p.layer + 1) + " in '" + p.text +
                              "' is beyond the model's " + std::to_string(layers) +
                              (layers == 1 ? " layer" : " layers"));
        if (p.head && *p.head >= heads)
            throw ConfigError(flag + ": head " + std::to_string(*p.head + 1) + " in '" + p.text +
                              "' is beyond the model's " + std::to_string(heads) + (heads == 1 ? " head" : " heads"));
        for (const HeadId& h : allHeads(layers, heads))
            if ((!p.kind || *p.kind == h.kind) && (!p.layer || *p.layer == h.layer) && (!p.head || *p.head == h.head))
                out.push_back(h);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<HeadId> allHeads(int layers, int heads) {
    std::vector<HeadId> out;
    for (MapKind kind : kHeadKinds)
        for (int l = 0; l < layers; ++l)
            for (int h = 0; h < heads; ++h) out.push_back({kind, l, h});
    return out;
}

}  // namespace attnlab
