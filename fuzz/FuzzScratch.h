#pragma once
// Shared by the fuzz targets that go through a reader's file path: one private directory per
// process, on tmpfs when there is one (/dev/shm/attnlab-fuzz-XXXXXX), removed at exit. A crash
// leaves it behind.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace attnlab::fuzz {

class ScratchDir {
public:
    ScratchDir() {
        namespace fs = std::filesystem;
        std::error_code ec;
        const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
        std::string pattern = (base / "attnlab-fuzz-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) {
            std::perror("mkdtemp");
            std::abort();
        }
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

    // Writes (replaces) DIR/name, creating its folders; aborts on failure (not a finding of the reader).
    std::string write(const std::string& name, const std::string& bytes) const {
        const std::filesystem::path p = path_ / name;
        std::error_code ec;
        std::filesystem::create_directories(p.parent_path(), ec);
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            std::fprintf(stderr, "%s: cannot write\n", p.c_str());
            std::abort();
        }
        return p.string();
    }

    // Creates DIR/name as a folder.
    std::string folder(const std::string& name) const {
        const std::filesystem::path p = path_ / name;
        std::error_code ec;
        std::filesystem::create_directories(p, ec);
        if (ec) {
            std::fprintf(stderr, "%s: cannot create\n", p.c_str());
            std::abort();
        }
        return p.string();
    }

private:
    std::filesystem::path path_;
};

}  // namespace attnlab::fuzz
