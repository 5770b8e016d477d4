#pragma once
// What every CLI test file shares: running attnlab-cli (alone or a few at a time), describing a
// run for a failure message, a scratch directory, files in and out, the one-error-line contract.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <regex>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Skip.h"
#include "TempDir.h"
#include "cli/ProcessRunner.h"

namespace attnlab::test::cli {

namespace fs = std::filesystem;
using attnlab::test::ProcessOptions;
using attnlab::test::ProcessResult;
using attnlab::test::ProcessRunner;
using attnlab::test::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinAbs;
using Json = nlohmann::json;
using Args = std::vector<std::string>;

inline const std::string kCli = ATTNLAB_CLI_PATH;

inline double sumOf(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// `train` re-executes itself once to pick faster BLAS kernels, doubling its start-up cost;
// tests that do not measure training skip that. userOptions() keeps the path users take.
inline ProcessOptions userOptions() {
    ProcessOptions o;
    o.environment["OMP_NUM_THREADS"] = "1";
    o.environment["OPENBLAS_NUM_THREADS"] = "1";
    o.environment["ATTNLAB_NO_BLAS_REEXEC"] = std::nullopt;
    o.timeout = 60.0;
    return o;
}

inline ProcessOptions defaultOptions() {
    ProcessOptions o = userOptions();
    o.environment["ATTNLAB_NO_BLAS_REEXEC"] = "1";
    return o;
}

inline ProcessResult cli(const Args& args, ProcessOptions options = defaultOptions()) {
    return ProcessRunner::run(kCli, args, options);
}

// Runs independent invocations a few at a time; results in the order given.
inline std::vector<ProcessResult> cliAll(const std::vector<Args>& invocations, const ProcessOptions& options = defaultOptions()) {
    constexpr std::size_t kParallel = 3;
    std::vector<ProcessResult> results(invocations.size());
    std::deque<std::pair<std::size_t, std::unique_ptr<ProcessRunner>>> active;
    std::size_t next = 0;
    while (next < invocations.size() || !active.empty()) {
        while (active.size() < kParallel && next < invocations.size()) {
            auto runner = std::make_unique<ProcessRunner>(kCli, invocations[next], options);
            runner->start();
            active.emplace_back(next++, std::move(runner));
        }
        results[active.front().first] = active.front().second->wait();
        active.pop_front();
    }
    return results;
}

inline std::string describe(const Args& args, const ProcessResult& r) {
    std::string s = "attnlab-cli";
    for (const auto& a : args) s += " " + (a.size() > 80 ? a.substr(0, 80) + "..." : a);
    return s + "\nexit " + std::to_string(r.exitCode) + (r.signal ? " signal " + std::to_string(r.signal) : "") +
           (r.timedOut ? " (timed out)" : "") + "\nstdout: " + r.out.substr(0, 2000) +
           "\nstderr: " + r.err.substr(0, 2000);
}

inline std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// The contract: an error is exactly one line on stderr, starting with "error:".
inline bool isOneErrorLine(const std::string& err) {
    return err.rfind("error: ", 0) == 0 && !err.empty() && err.back() == '\n' &&
           err.find('\n') == err.size() - 1;
}

// One scratch directory per CLI test program (TempDir.h), removed at exit.
inline const TempDir& scratch() {
    static TempDir dir;
    return dir;
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(out.good());
}

inline std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::string join(const std::vector<std::string>& items, const std::string& separator) {
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i) s += (i ? separator : "") + items[i];
    return s;
}

// Reads the child's output until `path` exists (a save renamed into place). False if `timeout`
// seconds pass first.
inline bool waitForFile(ProcessRunner& runner, const std::string& path, double timeout) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
    while (std::chrono::steady_clock::now() < deadline) {
        if (fs::exists(path)) return true;
        runner.waitForOutput(std::string(1, '\x01'), 0.005);
    }
    return fs::exists(path);
}

}  // namespace attnlab::test::cli
