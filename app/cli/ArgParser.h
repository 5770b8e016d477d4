#pragma once
// A small, strict option parser for attnlab-cli: "--flag value" and "--flag=value",
// boolean switches, positionals. Every mistake is a UsageError naming the flag.
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::cli {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class ArgParser {
public:
    // valueFlags take a value; switches do not. Anything else starting with "--" is an error.
    ArgParser(std::vector<std::string> args, std::set<std::string> valueFlags,
              std::set<std::string> switches);

    bool has(const std::string& flag) const;
    std::optional<std::string> value(const std::string& flag) const;
    std::string required(const std::string& flag) const;
    std::string text(const std::string& flag, const std::string& fallback) const;
    // Parses an integer in [min, max]; names the flag in the error.
    long long integer(const std::string& flag, long long fallback, long long min, long long max) const;
    double real(const std::string& flag, double fallback, double min, double max) const;
    const std::vector<std::string>& positionals() const { return positionals_; }
    // A file the command writes (--out FILE): required, and checked before any work is done, so
    // that a path that cannot be written is a usage error at once rather than a failed write after
    // training (checkOutputFile).
    std::string outputFile(const std::string& flag) const;

private:
    std::map<std::string, std::string> values_;
    std::set<std::string> switchesSeen_;
    std::vector<std::string> positionals_;
};

// UsageError("FLAG PATH: is a directory, not a file") for an existing directory or a path ending
// in '/'; "FLAG PATH: the directory DIR does not exist" (or "DIR is not a directory") when the
// folder it would go in is missing; "FLAG needs a file name" for "".
void checkOutputFile(const std::string& flag, const std::string& path);
// A folder the command writes into (created with its parents if missing): UsageError("FLAG PATH:
// is a file, not a directory") when it names something other than a directory, or lies under a file.
void checkOutputFolder(const std::string& flag, const std::string& path);

}  // namespace attnlab::cli
