#include "FileUtil.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "base/InputError.h"

namespace attnlab {

namespace {

std::string openFailureReason(int err) {
    switch (err) {
        case ENOENT: return "no such file";
        case ENOTDIR: return "no such file (a parent is not a directory)";
        case EACCES:
        case EPERM: return "permission denied";
        case EISDIR: return "is a directory";
        default: return std::string("cannot open: ") + std::strerror(err);
    }
}

std::string mebibytes(std::uint64_t bytes) {
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

// Closes on scope exit so every early throw releases the descriptor.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }
    int release() {
        int fd = fd_;
        fd_ = -1;
        return fd;
    }

private:
    int fd_;
};


}  // namespace

std::string readFileLimited(const std::string& path, std::uint64_t maxBytes) {
    if (path.empty()) throw InputError("(empty file name)", 0, "no such file");
    FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) throw InputError(path, 0, openFailureReason(errno));

    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw InputError(path, 0, std::string("cannot read: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw InputError(path, 0, "is a directory");
    if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > maxBytes)
        throw InputError(path, 0, "file is too large (" + mebibytes(static_cast<std::uint64_t>(st.st_size)) +
                                      "; the limit is " + mebibytes(maxBytes) + ")");

    std::string bytes;
    if (S_ISREG(st.st_mode)) bytes.reserve(static_cast<std::size_t>(st.st_size));
    // Pipes and devices have no size up front: read at most one byte past the cap.
    char buffer[1 << 16];
    for (;;) {
        ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) continue;
            int err = errno;
            throw InputError(path, 0,
                             err == EISDIR ? "is a directory" : std::string("cannot read: ") + std::strerror(err));
        }
        if (n == 0) break;
        bytes.append(buffer, static_cast<std::size_t>(n));
        if (bytes.size() > maxBytes)
            throw InputError(path, 0, "file is too large (the limit is " + mebibytes(maxBytes) + ")");
    }
    return bytes;
}

bool writeAllBytes(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

void writeFileAtomically(const std::string& path, const std::string& bytes, const FileWriter& writer) {
    namespace fs = std::filesystem;
    if (path.empty()) throw std::runtime_error("(empty file name): no file name given");
    const fs::path target(path);
    const std::string name = target.filename().string();
    if (name.empty() || name == "." || name == "..") throw std::runtime_error(path + ": is a directory");
    const fs::path dir = target.parent_path();

    static std::atomic<unsigned> counter{0};
    fs::path tmp;
    int rawFd = -1;
    for (int attempt = 0; attempt < 100 && rawFd < 0; ++attempt) {
        const std::string tmpName =
            "." + name + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
        tmp = dir.empty() ? fs::path(tmpName) : dir / tmpName;
        rawFd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (rawFd < 0 && errno != EEXIST) break;
    }
    if (rawFd < 0)
        throw std::runtime_error(path + ": cannot create a temporary file next to it: " + std::strerror(errno));
    FileDescriptor fd(rawFd);

    auto fail = [&](const std::string& what, int err) {
        ::close(fd.release());
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": " + what + ": " + std::strerror(err));
    };

    // Replacing a file keeps its permissions (e.g. a 0600 checkpoint stays private).
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode))
        ::fchmod(fd.get(), existing.st_mode & 07777);

    if (!writer(fd.get(), bytes.data(), bytes.size())) fail("cannot write", errno);
    if (::fsync(fd.get()) != 0) fail("cannot sync", errno);
    if (::close(fd.release()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": cannot write: " + std::strerror(err));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": cannot replace: " + std::strerror(err));
    }
    // Make the rename itself durable; failing here loses nothing already written.
    FileDescriptor dirFd(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dirFd.get() >= 0) ::fsync(dirFd.get());
}

}  // namespace attnlab
