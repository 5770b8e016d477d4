#pragma once
// The one temporary directory of the tests (base, core, cli and ui): a fresh directory under the
// system's temporary directory (mkdtemp, so parallel CTest entries never share one), removed with
// everything in it afterwards, also when a test made it or a folder inside it read-only.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <system_error>

#ifdef QT_CORE_LIB
#include <QString>
#endif

namespace attnlab::test {

class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "attnlab-test-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed in " + pattern);
        path = pattern;
    }
    ~TempDir() {
        namespace fs = std::filesystem;
        std::error_code ec;
        ::chmod(path.c_str(), 0755);  // undo read-only test folders, then remove everything
        for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec))
            if (it->is_directory(ec)) ::chmod(it->path().c_str(), 0755);
        fs::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // The path of NAME inside the directory (nothing is created).
    std::string file(const std::string& name) const { return (path / name).string(); }
    std::string operator/(const std::string& name) const { return file(name); }
    // Writes bytes to NAME inside the directory (its folders created as needed); returns its path.
    std::string file(const std::string& name, const std::string& bytes) const {
        const std::filesystem::path p = path / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << bytes;
        return p.string();
    }
    // How many files and folders the directory holds (not counting what is inside its folders).
    std::size_t entries() const {
        return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(path), {}));
    }

#ifdef QT_CORE_LIB
    // The same for the GUI tests, as QTemporaryDir names them.
    QString filePath(const QString& name) const { return QString::fromStdString(file(name.toStdString())); }
    QString qpath() const { return QString::fromStdString(path.string()); }
#endif

    std::filesystem::path path;
};

}  // namespace attnlab::test
