#pragma once
// The one-line message a user sees for bad input, or a marker when nothing was thrown, and a
// temporary folder to write input files into: shared by the reader tests.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "base/InputError.h"
#include <stdexcept>

namespace attnlab::test {

inline std::string inputErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no InputError)";
}

// A fresh folder under the system's temporary directory, removed with everything in it.
struct TempFolder {
    std::filesystem::path path;
    TempFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "attnlab-test-XXXXXX").string();
        path = ::mkdtemp(pattern.data()) ? pattern : throw std::runtime_error("mkdtemp failed");
    }
    ~TempFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    // Writes the bytes to NAME (folders created as needed); returns the full path.
    std::string write(const std::string& name, const std::string& bytes) const {
        const std::filesystem::path file = path / name;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary) << bytes;
        return file.string();
    }
};

}  // namespace attnlab::test
