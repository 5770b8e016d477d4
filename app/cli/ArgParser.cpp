#include "ArgParser.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace attnlab::cli {

ArgParser::ArgParser(std::vector<std::string> args, std::set<std::string> valueFlags,
                     std::set<std::string> switches) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            positionals_.insert(positionals_.end(), args.begin() + static_cast<long>(i) + 1, args.end());
            break;
        }
        if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
            std::string flag = a;
            std::optional<std::string> inlineValue;
            if (auto eq = a.find('='); eq != std::string::npos) {
                flag = a.substr(0, eq);
                inlineValue = a.substr(eq + 1);
            }
            if (switches.count(flag)) {
                if (inlineValue) throw UsageError(flag + " takes no value");
                switchesSeen_.insert(flag);
            } else if (valueFlags.count(flag)) {
                if (values_.count(flag)) throw UsageError(flag + " given twice");
                if (inlineValue) {
                    values_[flag] = *inlineValue;
                } else {
                    if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
                    values_[flag] = args[++i];
                }
            } else {
                throw UsageError("unknown option " + flag);
            }
        } else {
            positionals_.push_back(a);
        }
    }
}

bool ArgParser::has(const std::string& flag) const {
    return values_.count(flag) != 0 || switchesSeen_.count(flag) != 0;
}

std::optional<std::string> ArgParser::value(const std::string& flag) const {
    auto it = values_.find(flag);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::string ArgParser::required(const std::string& flag) const {
    auto v = value(flag);
    if (!v) throw UsageError(flag + " is required");
    return *v;
}

std::string ArgParser::outputFile(const std::string& flag) const {
    const std::string path = required(flag);
    checkOutputFile(flag, path);
    return path;
}

namespace {

namespace fs = std::filesystem;

// not_found when the path is missing; none when it cannot be told (permission denied): such a path
// is left for the write itself to report.
fs::file_type typeOf(const fs::path& path) {
    std::error_code ec;
    return fs::status(path, ec).type();
}

// The folder a file goes in ("" is the working directory) must be a directory: else the error
// names the missing folder nearest the root, or the file in the way.
void checkFolderOfFile(const std::string& flag, const std::string& path, const fs::path& folder) {
    if (folder.empty()) return;
    const fs::file_type type = typeOf(folder);
    if (type == fs::file_type::directory || type == fs::file_type::none) return;
    if (type != fs::file_type::not_found)
        throw UsageError(flag + " " + path + ": " + folder.string() + " is not a directory");
    fs::path missing = folder;
    for (fs::path up = folder.parent_path(); !up.empty() && up != missing; up = up.parent_path()) {
        const fs::file_type t = typeOf(up);
        if (t == fs::file_type::directory || t == fs::file_type::none) break;
        if (t != fs::file_type::not_found) throw UsageError(flag + " " + path + ": " + up.string() + " is not a directory");
        missing = up;
    }
    throw UsageError(flag + " " + path + ": the directory " + missing.string() + " does not exist");
}

}  // namespace

void checkOutputFile(const std::string& flag, const std::string& path) {
    if (path.empty()) throw UsageError(flag + " needs a file name");
    const fs::path p(path);
    if (path.back() == '/' || typeOf(p) == fs::file_type::directory)
        throw UsageError(flag + " " + path + ": is a directory, not a file");
    checkFolderOfFile(flag, path, p.parent_path());
}

void checkOutputFolder(const std::string& flag, const std::string& path) {
    if (path.empty()) throw UsageError(flag + " needs a directory name");
    fs::path p(path);
    while (p.has_parent_path() && !p.has_filename()) p = p.parent_path();  // "out/" is "out"
    const fs::file_type type = typeOf(p);
    if (type == fs::file_type::directory || type == fs::file_type::none) return;
    if (type != fs::file_type::not_found) throw UsageError(flag + " " + path + ": is a file, not a directory");
    // Missing: it is created with its parents, unless a file is in the way.
    for (fs::path up = p.parent_path(); !up.empty() && up != up.root_path(); up = up.parent_path()) {
        const fs::file_type t = typeOf(up);
        if (t == fs::file_type::directory || t == fs::file_type::none) return;
        if (t != fs::file_type::not_found) throw UsageError(flag + " " + path + ": " + up.string() + " is not a directory");
    }
}

std::string ArgParser::text(const std::string& flag, const std::string& fallback) const {
    return value(flag).value_or(fallback);
}

long long ArgParser::integer(const std::string& flag, long long fallback, long long min, long long max) const {
    auto v = value(flag);
    if (!v) return fallback;
    errno = 0;
    char* end = nullptr;
    long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || errno == ERANGE)
        throw UsageError(flag + " expects an integer, got '" + *v + "'");
    if (n < min || n > max)
        throw UsageError(flag + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                         ", got " + *v);
    return n;
}

double ArgParser::real(const std::string& flag, double fallback, double min, double max) const {
    auto v = value(flag);
    if (!v) return fallback;
    errno = 0;
    char* end = nullptr;
    double x = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || errno == ERANGE || !std::isfinite(x))
        throw UsageError(flag + " expects a number, got '" + *v + "'");
    if (x < min || x > max) {
        auto fmt = [](double d) {
            std::string s = std::to_string(d);
            s.erase(s.find_last_not_of('0') + 1);
            if (!s.empty() && s.back() == '.') s.pop_back();
            return s;
        };
        throw UsageError(flag + " must be between " + fmt(min) + " and " + fmt(max) + ", got " + *v);
    }
    return x;
}

}  // namespace attnlab::cli
