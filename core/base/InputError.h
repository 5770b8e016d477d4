#pragma once
// Errors a user can cause with a file or a value they typed. Each renders as one
// line that names the file (and line) at fault; the CLI maps the kind to an exit code.
#include <optional>
#include <stdexcept>
#include <string>

#include "base/Setting.h"

namespace attnlab {

// Bad input data: a corpus that cannot be read (CLI exit 3).
class InputError : public std::runtime_error {
public:
    InputError(std::string file, long line, const std::string& reason)
        : std::runtime_error(format(file, line, reason)), file_(std::move(file)), line_(line), reason_(reason) {}
    const std::string& file() const { return file_; }
    long line() const { return line_; }  // 0 when the fault is the whole file
    const std::string& reason() const { return reason_; }

private:
    static std::string format(const std::string& file, long line, const std::string& reason) {
        return line > 0 ? file + ":" + std::to_string(line) + ": " + reason : file + ": " + reason;
    }
    std::string file_;
    long line_;
    std::string reason_;
};

// A model file that cannot be used: truncated, corrupt, inconsistent (CLI exit 4).
class ModelFileError : public std::runtime_error {
public:
    ModelFileError(const std::string& file, const std::string& reason)
        : std::runtime_error(file + ": " + reason) {}
};

// A configuration or option value out of range (CLI exit 2). When a setting is at fault, problem()
// says which and why, so that each front end can word it (what() names it neutrally).
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    explicit ConfigError(const SettingProblem& problem)
        : std::runtime_error(describe(problem, settingName)), problem_(problem) {}
    const std::optional<SettingProblem>& problem() const { return problem_; }

private:
    std::optional<SettingProblem> problem_;
};

}  // namespace attnlab
