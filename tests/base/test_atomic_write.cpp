// A save killed halfway through (core/base/io/FileUtil.h: writeFileAtomically) leaves no file or the
// whole previous one, never a torn file, and its stale temporary file does not get in the way of the
// next save. A child process saves with a writer (the function's injected FileWriter) that stops
// after half the bytes and says so through a pipe; the parent kills it there with SIGKILL, as a crash
// or the OOM killer would. Every task's checkpoint and every file the CLI writes goes through this
// function.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "TempDir.h"
#include "base/io/FileUtil.h"

using namespace attnlab;
namespace fs = std::filesystem;

namespace {

std::string contents(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Saves `bytes` to `path` in a child that is killed with half of them written; returns the
// temporary file it left behind (empty if none).
fs::path killMidSave(const std::string& path, const std::string& bytes) {
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::close(ready[0]);
        const FileWriter half = [&](int fd, const char* data, std::size_t size) {
            if (!writeAllBytes(fd, data, size / 2)) return false;
            const char one = 1;
            if (::write(ready[1], &one, 1) != 1) ::_exit(3);
            for (;;) ::pause();  // killed here, mid-save
        };
        try {
            writeFileAtomically(path, bytes, half);
        } catch (...) {
        }
        ::_exit(2);  // not reached: the parent kills it first
    }
    ::close(ready[1]);
    char byte = 0;
    const bool halfWritten = ::read(ready[0], &byte, 1) == 1;
    ::close(ready[0]);
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(halfWritten);
    CHECK(WIFSIGNALED(status));
    const fs::path target(path);
    const std::string prefix = "." + target.filename().string() + ".tmp-" + std::to_string(child) + "-";
    for (const auto& entry : fs::directory_iterator(target.parent_path()))
        if (entry.path().filename().string().rfind(prefix, 0) == 0) return entry.path();
    return {};
}

}  // namespace

TEST_CASE("SIGKILL in the middle of a save leaves no file or the whole previous one, never a torn file",
          "[files]") {
    test::TempDir dir;
    const std::string path = dir.file("model.safetensors");
    const std::string first(200000, 'a'), second(200000, 'b');

    // Killed in the first save: no file appears; the torn temporary file stays, as after a crash.
    const fs::path torn = killMidSave(path, first);
    CHECK_FALSE(fs::exists(path));
    REQUIRE_FALSE(torn.empty());
    CHECK(fs::file_size(torn) == first.size() / 2);

    // A save next to the stale temporary file succeeds and leaves it alone.
    writeFileAtomically(path, first);
    CHECK(contents(path) == first);
    CHECK(fs::exists(torn));

    // Killed in the next save: the previous file is there, whole.
    const fs::path tornAgain = killMidSave(path, second);
    REQUIRE_FALSE(tornAgain.empty());
    CHECK(fs::file_size(tornAgain) == second.size() / 2);
    CHECK(contents(path) == first);

    // A writer that fails: an exception naming the file, no temporary file left, the file untouched.
    const FileWriter failing = [](int, const char*, std::size_t) {
        errno = ENOSPC;
        return false;
    };
    CHECK_THROWS_WITH(writeFileAtomically(path, second, failing), path + ": cannot write: No space left on device");
    CHECK(contents(path) == first);
    std::size_t temporaries = 0;
    for (const auto& entry : fs::directory_iterator(dir.path)) temporaries += entry.path() != fs::path(path);
    CHECK(temporaries == 2);  // the two torn ones only
}
