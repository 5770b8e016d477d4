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

private:
    std::map<std::string, std::string> values_;
    std::set<std::string> switchesSeen_;
    std::vector<std::string> positionals_;
};

}  // namespace attnlab::cli
