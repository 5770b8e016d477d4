// GNU gettext catalogues as data: finding the catalogues of a locale tree
// (LOCALEROOT/LANG/LC_MESSAGES/*.mo), the English -> LANG translation pairs over all of a
// language's catalogues, the langid classification dataset, and the report's bookkeeping.
// The .mo and .po parsers are in GettextFormats.cpp, cleanGettextMessage in GettextClean.cpp.
#include "Gettext.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/InputError.h"
#include "base/SeededRandom.h"

namespace attnlab {

namespace {

namespace fs = std::filesystem;

bool isEnglishVariant(const std::string& code) {
    return code == "en" || code.rfind("en_", 0) == 0 || code.rfind("en@", 0) == 0;
}


// "a, b, c and 12 more" for messages.
std::string listed(const std::vector<std::string>& items, std::size_t shown = 12) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) out += (i ? ", " : "") + items[i];
    if (items.size() > shown) out += " and " + std::to_string(items.size() - shown) + " more";
    return out.empty() ? "none" : out;
}

}  // namespace

const char* toString(GettextSkip reason) {
    switch (reason) {
        case GettextSkip::Obsolete: return "obsolete";
        case GettextSkip::Header: return "header";
        case GettextSkip::Context: return "context";
        case GettextSkip::Plural: return "plural";
        case GettextSkip::Fuzzy: return "fuzzy";
        case GettextSkip::Untranslated: return "untranslated";
        case GettextSkip::InvalidUtf8: return "invalid UTF-8";
        case GettextSkip::NoLetters: return "no letters";
        case GettextSkip::TooLong: return "too long";
        case GettextSkip::Duplicate: return "duplicate";
    }
    return "unknown";
}

long GettextReport::count(GettextSkip reason) const {
    const auto it = skipped.find(reason);
    return it == skipped.end() ? 0 : it->second;
}

void GettextReport::merge(const GettextReport& other) {
    entries += other.entries;
    kept += other.kept;
    catalogues += other.catalogues;
    for (const auto& [reason, n] : other.skipped) skipped[reason] += n;
    problems.insert(problems.end(), other.problems.begin(), other.problems.end());
}

std::vector<std::string> gettextCatalogues(const std::string& localeRoot, const std::string& lang) {
    std::vector<std::string> out;
    std::error_code ec;
    const fs::path dir = fs::path(localeRoot) / lang / "LC_MESSAGES";
    if (lang.empty() || lang.find('/') != std::string::npos || !fs::is_directory(dir, ec)) return out;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        std::error_code fileEc;
        if (p.extension() == ".mo" && fs::is_regular_file(p, fileEc)) out.push_back(p.string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> defaultLangidLanguages(const std::string& localeRoot) {
    static const std::vector<std::string> kDefaults{"de", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt_BR", "ru", "sv", "zh_CN"};
    const std::vector<std::string> installed = gettextLanguages(localeRoot);
    std::vector<std::string> out;
    for (const auto& lang : kDefaults)
        if (std::find(installed.begin(), installed.end(), lang) != installed.end()) out.push_back(lang);
    return out;
}

std::vector<std::string> gettextLanguages(const std::string& localeRoot) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(localeRoot, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string lang = it->path().filename().string();
        if (!gettextCatalogues(localeRoot, lang).empty()) out.push_back(lang);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<GettextPair> gettextTranslationPairs(const std::string& localeRoot, const std::string& lang,
                                                 GettextReport& report) {
    const std::vector<std::string> files = gettextCatalogues(localeRoot, lang);
    if (files.empty())
        throw InputError((fs::path(localeRoot) / lang / "LC_MESSAGES").string(), 0,
                         "no gettext catalogues (*.mo) for language '" + lang + "' (installed: " +
                             listed(gettextLanguages(localeRoot)) + ")");
    std::vector<GettextPair> pairs;
    std::unordered_set<std::string> seen;
    for (const std::string& file : files) {
        GettextReport local;
        std::vector<GettextPair> filePairs;
        try {
            filePairs = readGettextFile(file, local);
        } catch (const InputError& e) {
            report.problems.push_back(e.what());
            continue;
        }
        for (GettextPair& p : filePairs) {
            if (!seen.insert(p.english).second) {  // already given by an earlier catalogue
                --local.kept;
                ++local.skipped[GettextSkip::Duplicate];
                continue;
            }
            pairs.push_back(std::move(p));
        }
        report.merge(local);
    }
    return pairs;
}

ClassificationCorpus langidDataset(const std::string& localeRoot, const std::vector<std::string>& languages,
                                   std::size_t perLanguage, std::uint64_t seed, LangidReport* report) {
    if (perLanguage == 0) throw ConfigError("messages per language must be at least 1");
    LangidReport local;
    const bool chosen = !languages.empty();
    std::vector<std::string> codes;
    if (chosen) {
        codes = languages;
        std::sort(codes.begin(), codes.end());
        codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
    } else {
        for (const std::string& code : gettextLanguages(localeRoot))
            if (!isEnglishVariant(code)) codes.push_back(code);
    }

    // Each language's distinct translations that differ from their English.
    std::vector<std::vector<std::string>> texts(codes.size());
    std::unordered_map<std::string, int> languagesOf;
    for (std::size_t k = 0; k < codes.size(); ++k) {
        std::unordered_set<std::string> distinct;
        for (GettextPair& p : gettextTranslationPairs(localeRoot, codes[k], local.gettext)) {
            if (p.translation == p.english) {
                ++local.sameAsEnglish;
                continue;
            }
            if (distinct.insert(p.translation).second) texts[k].push_back(std::move(p.translation));
        }
        for (const std::string& t : texts[k]) ++languagesOf[t];
    }

    std::mt19937_64 rng(seed);
    ClassificationCorpus corpus;
    corpus.name = "langid";
    for (std::size_t k = 0; k < codes.size(); ++k) {
        std::vector<std::string> own;
        for (std::string& t : texts[k]) {
            if (languagesOf[t] > 1)
                ++local.shared;
            else
                own.push_back(std::move(t));
        }
        LangidLanguage info{codes[k], static_cast<long>(own.size()), 0};
        const std::size_t needed = chosen ? 1 : kLangidMinMessages;
        if (own.size() < needed) {
            local.leftOut.push_back(info);
            continue;
        }
        const std::size_t take = std::min(own.size(), perLanguage);
        for (std::size_t i = 0; i < take; ++i)  // a seeded partial Fisher-Yates: the first `take` are the sample
            std::swap(own[i], own[i + static_cast<std::size_t>(uniformBelow(rng, own.size() - i))]);
        for (std::size_t i = 0; i < take; ++i) corpus.examples.push_back({std::move(own[i]), codes[k], {}, 0});
        info.used = static_cast<long>(take);
        local.used.push_back(info);
    }

    if (local.used.size() < 2) {
        std::vector<std::string> found, small;
        for (const auto& l : local.used) found.push_back(l.code + " (" + std::to_string(l.available) + ")");
        for (const auto& l : local.leftOut) small.push_back(l.code + " (" + std::to_string(l.available) + ")");
        std::string reason = "language identification needs two or more languages with ";
        reason += chosen ? std::string("usable messages") : "at least " + std::to_string(kLangidMinMessages) + " usable messages";
        reason += "; found " + std::to_string(local.used.size()) + (found.empty() ? "" : ": " + listed(found));
        if (!small.empty()) reason += "; too few: " + listed(small);
        if (codes.empty()) reason += " (no gettext catalogues under LANG/LC_MESSAGES/)";
        throw InputError(localeRoot, 0, reason);
    }

    for (std::size_t i = corpus.examples.size(); i > 1; --i)
        std::swap(corpus.examples[i - 1], corpus.examples[static_cast<std::size_t>(uniformBelow(rng, i))]);
    corpus.labels = distinctLabels(corpus.examples);
    if (report) *report = std::move(local);
    return corpus;
}

}  // namespace attnlab
