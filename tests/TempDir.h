#pragma once
// A fresh directory under the system temporary directory for one test, removed with everything in
// it afterwards (also when a test made it read-only). Shared by the core tests that write files.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace attnlab::test {

class TempDir {
public:
    TempDir() {
        path = std::filesystem::temp_directory_path() /
               ("attnlab-test-" + std::to_string(::getpid()) + "-" + std::to_string(nextNumber()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // Writes bytes to name inside the directory; returns the file's path.
    std::string file(const std::string& name, const std::string& bytes) const {
        const std::filesystem::path p = path / name;
        std::ofstream(p, std::ios::binary) << bytes;
        return p.string();
    }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
    std::size_t entries() const {
        return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(path), {}));
    }

    std::filesystem::path path;

private:
    static int nextNumber() {
        static int counter = 0;
        return counter++;
    }
};

}  // namespace attnlab::test
