#include "ProcessRunner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace attnlab::test {

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

}  // namespace

ProcessRunner::ProcessRunner(std::string program, std::vector<std::string> args, ProcessOptions options)
    : program_(std::move(program)), args_(std::move(args)), options_(std::move(options)) {}

ProcessRunner::~ProcessRunner() {
    if (pid_ > 0 && !reaped_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    closeAll();
}

void ProcessRunner::closeAll() {
    closeFd(outFd_);
    closeFd(errFd_);
    closeFd(inFd_);
}

double ProcessRunner::elapsed() const { return now() - startTime_; }

void ProcessRunner::start() {
    if (pid_ > 0) throw std::runtime_error("process already started");
    // Writing to the stdin of a child that already exited must be an error, not the test's death.
    ::signal(SIGPIPE, SIG_IGN);

    // Everything the child needs is built before fork: only async-signal-safe calls after it.
    std::vector<std::string> argStrings{program_};
    argStrings.insert(argStrings.end(), args_.begin(), args_.end());
    std::vector<char*> argv;
    for (auto& a : argStrings) argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<std::string> envStrings;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry(*e);
        const std::string name = entry.substr(0, entry.find('='));
        if (options_.environment.count(name) == 0) envStrings.push_back(entry);
    }
    for (const auto& [name, value] : options_.environment)
        if (value) envStrings.push_back(name + "=" + *value);
    std::vector<char*> envp;
    for (auto& e : envStrings) envp.push_back(e.data());
    envp.push_back(nullptr);

    int out[2], err[2], in[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    }
    if (::pipe2(in, O_CLOEXEC) != 0) {
        for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    }

    startTime_ = now();
    pid_ = ::fork();
    if (pid_ < 0) {
        for (int fd : {out[0], out[1], err[0], err[1], in[0], in[1]}) ::close(fd);
        throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    }
    if (pid_ == 0) {
        // Child: default signal dispositions and mask, as a shell would start it.
        ::signal(SIGPIPE, SIG_DFL);
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::dup2(in[0], STDIN_FILENO);
        ::dup2(out[1], STDOUT_FILENO);
        ::dup2(err[1], STDERR_FILENO);
        if (options_.fileSizeLimit >= 0) {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{static_cast<rlim_t>(options_.fileSizeLimit), static_cast<rlim_t>(options_.fileSizeLimit)};
            if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(126);
        }
        if (!options_.workingDirectory.empty() && ::chdir(options_.workingDirectory.c_str()) != 0) _exit(126);
        ::execve(argv[0], argv.data(), envp.data());
        const char message[] = "ProcessRunner: execve failed\n";
        ssize_t ignored = ::write(STDERR_FILENO, message, sizeof message - 1);
        (void)ignored;
        _exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    ::close(in[0]);
    outFd_ = out[0];
    errFd_ = err[0];
    inFd_ = in[1];
    for (int fd : {outFd_, errFd_, inFd_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    if (options_.input.empty()) closeFd(inFd_);
}

bool ProcessRunner::pump(int timeoutMs) {
    if (outFd_ < 0 && errFd_ < 0) {
        closeFd(inFd_);
        return false;
    }
    pollfd fds[3];
    int n = 0;
    if (outFd_ >= 0) fds[n++] = {outFd_, POLLIN, 0};
    if (errFd_ >= 0) fds[n++] = {errFd_, POLLIN, 0};
    if (inFd_ >= 0) fds[n++] = {inFd_, POLLOUT, 0};
    const int ready = ::poll(fds, static_cast<nfds_t>(n), timeoutMs);
    if (ready < 0 && errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    if (ready <= 0) return true;
    for (int i = 0; i < n; ++i) {
        if (fds[i].revents == 0) continue;
        if (fds[i].fd == inFd_) {
            const ssize_t w = ::write(inFd_, options_.input.data() + inputWritten_,
                                      options_.input.size() - inputWritten_);
            if (w > 0) inputWritten_ += static_cast<std::size_t>(w);
            if (w < 0 && errno != EAGAIN && errno != EINTR) inputWritten_ = options_.input.size();  // child gone
            if (inputWritten_ >= options_.input.size()) closeFd(inFd_);
            continue;
        }
        int& fd = fds[i].fd == outFd_ ? outFd_ : errFd_;
        std::string& sink = fds[i].fd == outFd_ ? result_.out : result_.err;
        char buffer[65536];
        const ssize_t r = ::read(fd, buffer, sizeof buffer);
        if (r > 0) {
            sink.append(buffer, static_cast<std::size_t>(r));
        } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
            closeFd(fd);
        }
    }
    return outFd_ >= 0 || errFd_ >= 0;
}

bool ProcessRunner::waitForOutput(const std::string& text, double timeout) {
    const double deadline = now() + timeout;
    while (result_.out.find(text) == std::string::npos) {
        const double left = deadline - now();
        if (left <= 0) return false;
        if (!pump(static_cast<int>(left * 1000) + 1)) return result_.out.find(text) != std::string::npos;
    }
    return true;
}

void ProcessRunner::sendSignal(int signal) {
    if (pid_ > 0 && !reaped_) ::kill(pid_, signal);
}

ProcessResult ProcessRunner::wait() {
    if (pid_ <= 0) throw std::runtime_error("process not started");
    if (reaped_) return result_;
    auto killIfLate = [&] {
        if (!result_.timedOut && elapsed() > options_.timeout) {
            result_.timedOut = true;
            ::kill(pid_, SIGKILL);
        }
    };
    while (pump(100)) killIfLate();
    // The pipes are closed; wait for the exit itself: a pidfd is readable once the child has ended
    // (Linux 5.3), and the 100 ms timeout lets a late child be killed.
    const int pidFd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    int status = 0;
    for (;;) {
        const pid_t r = ::waitpid(pid_, &status, pidFd >= 0 ? WNOHANG : 0);
        if (r == pid_) break;
        if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
        killIfLate();
        if (pidFd >= 0) {
            pollfd exited{pidFd, POLLIN, 0};
            ::poll(&exited, 1, 100);
        }
    }
    if (pidFd >= 0) ::close(pidFd);
    reaped_ = true;
    result_.seconds = elapsed();
    if (WIFEXITED(status)) {
        result_.exitCode = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result_.signal = WTERMSIG(status);
    }
    closeAll();
    return result_;
}

ProcessResult ProcessRunner::run(const std::string& program, const std::vector<std::string>& args,
                                 const ProcessOptions& options) {
    ProcessRunner runner(program, args, options);
    runner.start();
    return runner.wait();
}

}  // namespace attnlab::test
