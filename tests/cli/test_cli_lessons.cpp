// attnlab-cli lessons as a process: the listing's JSON shape, and --check's output and exit codes
// for a good and a broken lesson file (docs/lessons.md).
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "TempDir.h"
#include "cli/ProcessRunner.h"

using attnlab::test::ProcessOptions;
using attnlab::test::ProcessResult;
using attnlab::test::ProcessRunner;
using Json = nlohmann::json;

namespace {

const std::string kLessonDir = ATTNLAB_SOURCE_DIR "/resources/lessons";

ProcessResult lessonsCli(const std::vector<std::string>& args, std::optional<std::string> lessonDir = std::nullopt) {
    ProcessOptions o;
    o.environment["ATTNLAB_LESSON_DIR"] = lessonDir;
    return ProcessRunner::run(ATTNLAB_CLI_PATH, args, o);
}

}  // namespace

TEST_CASE("lessons --json lists every built-in lesson with id, title, task and file", "[cli][lessons]") {
    const ProcessResult r = lessonsCli({"lessons", "--json"}, kLessonDir);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const Json j = Json::parse(r.out);
    REQUIRE(j.is_object());
    REQUIRE(j.size() == 1);
    const Json& list = j.at("lessons");
    REQUIRE(list.is_array());
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kLessonDir)) files += entry.path().extension() == ".json";
    CHECK(list.size() == files);
    std::set<std::string> tasks, ids;
    for (const Json& l : list) {
        REQUIRE(l.size() == 4);
        CHECK(ids.insert(l.at("id").get<std::string>()).second);
        CHECK_FALSE(l.at("title").get<std::string>().empty());
        tasks.insert(l.at("task").get<std::string>());
        const std::string file = l.at("file").get<std::string>();
        CHECK(std::filesystem::exists(file));
        CHECK(std::filesystem::path(file).parent_path() == std::filesystem::path(kLessonDir));
    }
    CHECK(ids.count("alignment") == 1);
    for (const char* task : {"translate", "classify", "image-classify", "caption"}) CHECK(tasks.count(task) == 1);

    // The plain listing names the same lessons; without ATTNLAB_LESSON_DIR the build tree's copy
    // (build/share/attnlab/lessons) is found beside the program.
    const ProcessResult plain = lessonsCli({"lessons"});
    INFO(plain.err);
    REQUIRE(plain.exitCode == 0);
    CHECK(plain.out.find("alignment") != std::string::npos);
    CHECK(plain.out.find("share/attnlab/lessons") != std::string::npos);
}

TEST_CASE("lessons --check: FILE: ok, or exit 3 naming the file and the field", "[cli][lessons]") {
    const std::string good = kLessonDir + "/translate-1-alignment.json";
    const ProcessResult ok = lessonsCli({"lessons", "--check", good});
    CHECK(ok.exitCode == 0);
    CHECK(ok.out == good + ": ok\n");
    CHECK(ok.err.empty());

    attnlab::test::TempDir dir;
    const std::string bad = dir.file("bad.json", R"({"format": "attnlab-lesson", "version": 1, "id": "x",
        "task": "translate", "title": "T", "card": "C", "data": {"dataset": "copy"},
        "training": {"epochs": "ten"}})");
    const ProcessResult r = lessonsCli({"lessons", "--check", bad});
    CHECK(r.exitCode == 3);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + bad + ": training.epochs: must be a whole number\n");

    const ProcessResult missing = lessonsCli({"lessons", "--check", dir.file("none.json")});
    CHECK(missing.exitCode == 3);
    CHECK(missing.err.rfind("error: " + dir.file("none.json") + ": ", 0) == 0);

    // A broken file in a listed folder is reported the same way.
    const ProcessResult listed = lessonsCli({"lessons", "--dir", dir.path.string()});
    CHECK(listed.exitCode == 3);
    CHECK(listed.err.find("training.epochs") != std::string::npos);

    const ProcessResult usage = lessonsCli({"lessons", "--check", good, "--json"});
    CHECK(usage.exitCode == 2);
}

#ifdef ATTNLAB_HAVE_RENDER
TEST_CASE("attnlab --lesson FILE starts a lesson file, and a broken one is one error line", "[cli][lessons]") {
    const std::string window = (std::filesystem::path(ATTNLAB_CLI_PATH).parent_path() / "attnlab").string();
    REQUIRE(std::filesystem::exists(window));
    attnlab::test::TempDir dir;
    const std::string head = R"({"format": "attnlab-lesson", "version": 1, "id": "tiny", "task": "translate",
        "title": "Tiny", "card": "Watch.", "data": {"dataset": "copy", "size": 64, "max_length": 5},
        "training": {"epochs": 1}, )";
    const std::string good = dir.file("tiny.json", head + R"("view": "curves"})");
    const std::string bad = dir.file("bad.json", head + R"("view": 3})");
    ProcessOptions o;
    o.environment["QT_QPA_PLATFORM"] = "offscreen";
    const ProcessResult ok = ProcessRunner::run(window, {"--paint-and-quit", "--lesson", good}, o);
    INFO(ok.err);
    CHECK(ok.exitCode == 0);
    CHECK(ok.err.find("error") == std::string::npos);
    const ProcessResult broken = ProcessRunner::run(window, {"--paint-and-quit", "--lesson", bad}, o);
    CHECK(broken.exitCode == 3);
    CHECK(broken.err.find("error: " + bad + ": view: must be a string\n") != std::string::npos);
    CHECK(broken.err.find("error:") == broken.err.rfind("error:"));  // one line
}
#endif
