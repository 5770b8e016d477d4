#pragma once
// Runs a program as a child process (fork + execve) with its standard output and error
// captured through pipes, so the CLI tests see exactly what a user or a script sees:
// the bytes on each stream, the exit code, the signal that ended it. A child that
// outlives its timeout is killed and reported as timed out.
#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::test {

struct ProcessResult {
    int exitCode = -1;  // -1 when ended by a signal
    int signal = 0;     // the signal that ended it, 0 if it exited
    bool timedOut = false;
    std::string out;
    std::string err;
    double seconds = 0.0;
};

struct ProcessOptions {
    // Variables to set (a value) or remove (std::nullopt) in the child's environment.
    std::map<std::string, std::optional<std::string>> environment;
    std::string input;       // written to the child's standard input, which is then closed
    double timeout = 60.0;   // seconds
    std::string workingDirectory;  // empty: the caller's
    // RLIMIT_FSIZE for the child, in bytes (-1: unchanged). Writing past it fails with EFBIG
    // (SIGXFSZ is ignored), which stands in for a full disk even when running as root.
    long long fileSizeLimit = -1;
};

class ProcessRunner {
public:
    ProcessRunner(std::string program, std::vector<std::string> args, ProcessOptions options = {});
    ~ProcessRunner();  // kills and reaps a child still running
    ProcessRunner(const ProcessRunner&) = delete;
    ProcessRunner& operator=(const ProcessRunner&) = delete;

    void start();  // throws std::runtime_error if the child cannot be started
    // Reads both streams until standard output contains `text`; false if the child
    // ended or `timeout` seconds passed first.
    bool waitForOutput(const std::string& text, double timeout);
    void sendSignal(int signal);
    // Reads both streams to the end and reaps the child (killed at the overall timeout).
    ProcessResult wait();
    const std::string& out() const { return result_.out; }
    const std::string& err() const { return result_.err; }

    static ProcessResult run(const std::string& program, const std::vector<std::string>& args,
                             const ProcessOptions& options = {});

private:
    // Moves available bytes from the pipes; returns false when both are closed.
    bool pump(int timeoutMs);
    double elapsed() const;
    void closeAll();

    std::string program_;
    std::vector<std::string> args_;
    ProcessOptions options_;
    pid_t pid_ = -1;
    int outFd_ = -1, errFd_ = -1, inFd_ = -1;
    std::size_t inputWritten_ = 0;
    double startTime_ = 0.0;
    bool reaped_ = false;
    ProcessResult result_;
};

}  // namespace attnlab::test
