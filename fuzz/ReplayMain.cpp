// main() for the replay_<target> executables: feeds every file in the directories
// (or the files) given on the command line to LLVMFuzzerTestOneInput, in name order,
// so that CTest re-checks the seeds and every past crash with an ordinary compiler.
// Arguments starting with '-' are ignored (libFuzzer flags). An empty or missing
// directory is an error: a seed corpus that vanished must not pass silently.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

bool replayFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot open\n", path.c_str());
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // A heap copy of exactly the input's size, as libFuzzer passes it, so ASan sees reads past the end.
    std::vector<std::uint8_t> input(bytes.begin(), bytes.end());
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(), input.size());
    LLVMFuzzerTestOneInput(input.empty() ? nullptr : input.data(), input.size());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t replayed = 0;
    bool ok = true;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (!arg.empty() && arg[0] == '-') continue;
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<fs::path> files;
            for (const auto& entry : fs::directory_iterator(arg, ec))
                if (entry.is_regular_file()) files.push_back(entry.path());
            std::sort(files.begin(), files.end());
            if (files.empty()) {
                std::fprintf(stderr, "%s: no input files\n", arg.c_str());
                ok = false;
            }
            for (const auto& f : files) {
                if (replayFile(f))
                    ++replayed;
                else
                    ok = false;
            }
        } else if (fs::is_regular_file(arg, ec)) {
            if (replayFile(arg))
                ++replayed;
            else
                ok = false;
        } else {
            std::fprintf(stderr, "%s: no such file or directory\n", arg.c_str());
            ok = false;
        }
    }
    std::printf("replayed %zu inputs\n", replayed);
    return ok && replayed > 0 ? 0 : 1;
}
