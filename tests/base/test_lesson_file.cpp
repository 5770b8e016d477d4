// Lesson files (core/base/lesson/Lesson.h, docs/lessons.md): every built-in lesson parses, each kind of
// mistake is reported as "FILE: FIELD: reason" naming its field, and a lesson written and read back
// is the same lesson.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "InputErrors.h"
#include "TempDir.h"
#include "base/lesson/Lesson.h"
#include "base/TaskIds.h"
#include "base/forecast/ForecastConfig.h"
#include "base/translation/ModelConfig.h"

using namespace attnlab;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Json = nlohmann::ordered_json;

namespace {

const std::string kBuiltinDir = ATTNLAB_SOURCE_DIR "/resources/lessons";

Json minimal() {
    return Json::parse(R"({"format": "attnlab-lesson", "version": 1, "id": "demo", "task": "translate",
        "title": {"en": "Demo", "zh_CN": "演示"}, "card": {"en": "Look at the diagonal."},
        "data": {"dataset": "copy", "size": 100}})");
}

// The error of a lesson given as JSON, written to lesson.json in `dir`.
std::string errorOf(const test::TempDir& dir, const Json& j) {
    const std::string path = dir.file("lesson.json", j.dump());
    return test::inputErrorOf([&] { readLessonFile(path); });
}

}  // namespace

TEST_CASE("every built-in lesson file parses, and together they cover every task", "[lesson]") {
    const std::vector<LessonFile> all = readLessonDir(kBuiltinDir);
    REQUIRE(all.size() >= 6);
    std::set<std::string> tasks, ids;
    for (const LessonFile& l : all) {
        INFO(l.file);
        CHECK(ids.insert(l.id).second);
        tasks.insert(l.task);
        CHECK_FALSE(l.title.in("en").empty());
        CHECK_FALSE(l.card.in("en").empty());
        CHECK(l.title.byLanguage.count("zh_CN") == 1);  // every built-in lesson is translated
        CHECK(l.card.byLanguage.count("zh_CN") == 1);
        CHECK_FALSE(l.view.empty());
        CHECK(l.seed.has_value());
    }
    for (const char* task : {tasks::kTranslate, tasks::kClassify, tasks::kImageClassify, tasks::kCaption})
        CHECK(tasks.count(task) == 1);
}

TEST_CASE("a lesson's model is the task's defaults with the file's fields", "[lesson]") {
    test::TempDir dir;
    Json j = minimal();
    j["model"] = {{"architecture", "transformer"}, {"heads", 2}};
    const std::string path = dir.file("l.json", j.dump());
    const LessonFile l = readLessonFile(path);
    const ModelConfig c = modelConfigFromJson(parsableLessonModel(l.model));
    CHECK(c.architecture == Architecture::Transformer);
    CHECK(c.heads == 2);
    CHECK(c.hidden == ModelConfig{}.hidden);  // not given: the default
    CHECK(l.size == 100);
    CHECK(l.dataSeed == 1);
    CHECK_FALSE(l.seed.has_value());
    CHECK(l.title.in("zh_CN") == "演示");
    CHECK(l.title.in("zh") == "演示");
    CHECK(l.card.in("zh_CN") == "Look at the diagonal.");  // no Chinese: English
    CHECK(l.title.in("fr") == "Demo");
}

TEST_CASE("each mistake in a lesson file names its field", "[lesson]") {
    test::TempDir dir;
    const std::string file = dir.file("lesson.json");
    struct Case {
        const char* what;
        std::function<void(Json&)> edit;
        const char* message;  // after "FILE: "
    };
    const std::vector<Case> cases = {
        {"unknown field", [](Json& j) { j["colour"] = "red"; }, "colour: unknown field"},
        {"missing id", [](Json& j) { j.erase("id"); }, "id: missing"},
        {"missing data", [](Json& j) { j.erase("data"); }, "data: missing"},
        {"bad format", [](Json& j) { j["format"] = "lesson"; }, "format: must be \"attnlab-lesson\""},
        {"bad version", [](Json& j) { j["version"] = 2; }, "version: version 2 is not supported"},
        {"version as text", [](Json& j) { j["version"] = "1"; }, "version: must be a whole number"},
        {"unknown task", [](Json& j) { j["task"] = "painting"; }, "task: unknown task 'painting'"},
        {"window task", [](Json& j) { j["task"] = "images"; }, "task: unknown task 'images'"},
        {"bad id", [](Json& j) { j["id"] = "a b"; }, "id: must be 1 to 64 letters"},
        {"title without English", [](Json& j) { j["title"] = {{"zh_CN", "演示"}}; }, "title.en: missing"},
        {"card of the wrong type", [](Json& j) { j["card"] = 3; }, "card: must be an object of texts"},
        {"unknown dataset", [](Json& j) { j["data"]["dataset"] = "klingon"; }, "data.dataset: unknown dataset 'klingon'"},
        {"size as text", [](Json& j) { j["data"]["size"] = "many"; }, "data.size: must be a whole number"},
        {"size out of range", [](Json& j) { j["data"]["size"] = 0; }, "data.size: must be between 1 and 1000000"},
        {"unknown data field", [](Json& j) { j["data"]["colour"] = 1; }, "data.colour: unknown field"},
        {"dataset and path", [](Json& j) { j["data"]["path"] = "x.tsv"; }, "data: give either"},
        {"missing path", [](Json& j) { j["data"] = {{"path", "missing.tsv"}}; }, "data.path: no such file or folder"},
        {"unknown model field", [](Json& j) { j["model"] = {{"heeds", 2}}; }, "model.heeds: unknown field"},
        {"model field of the wrong type", [](Json& j) { j["model"] = {{"hidden", "big"}}; }, "model.hidden: must be a whole number"},
        {"invalid model", [](Json& j) { j["model"] = {{"architecture", "lstm"}}; }, "model: "},
        {"unknown training field", [](Json& j) { j["training"] = {{"momentum", 0.9}}; }, "training.momentum: unknown field"},
        {"learning rate 0", [](Json& j) { j["training"] = {{"learning_rate", 0}}; }, "training.learning_rate: must be above 0"},
        {"cosine for translation", [](Json& j) { j["training"] = {{"cosine", true}}; }, "training.cosine: unknown field"},
        {"seed as text", [](Json& j) { j["seed"] = "one"; }, "seed: must be a whole number"},
        {"unknown probe", [](Json& j) { j["probe"] = {{"image", "x.png"}}; }, "probe.image: unknown field"},
        {"probe sentence of the wrong type", [](Json& j) { j["probe"] = {{"sentence", 5}}; }, "probe.sentence: must be a string"},
        {"view of the wrong type", [](Json& j) { j["view"] = true; }, "view: must be a string"},
        {"unknown control", [](Json& j) { j["controls"] = {{"lock", {"learning_rate", "volume"}}}; }, "controls.lock[1]: unknown control 'volume'"},
        {"hide not a list", [](Json& j) { j["controls"] = {{"hide", "epochs"}}; }, "controls.hide: must be a list"},
        {"unknown controls field", [](Json& j) { j["controls"] = {{"show", Json::array()}}; }, "controls.show: unknown field"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        Json j = minimal();
        c.edit(j);
        CHECK_THAT(errorOf(dir, j), StartsWith(file + ": " + c.message));
    }
    // Not JSON at all, and not an object.
    CHECK_THAT(test::inputErrorOf([&] { readLessonFile(dir.file("a.json", "{\"id\": ")); }),
               StartsWith(dir.file("a.json") + ": not valid JSON"));
    CHECK_THAT(test::inputErrorOf([&] { readLessonFile(dir.file("b.json", "[1, 2]")); }),
               StartsWith(dir.file("b.json") + ": not a JSON object"));
    CHECK_THAT(test::inputErrorOf([&] { readLessonFile(dir.file("none.json")); }), Contains("none.json"));
}

TEST_CASE("a lesson's paths are relative to its file", "[lesson]") {
    test::TempDir dir;
    dir.file("course/data/pairs.tsv", "a b\tc d\n");
    Json j = minimal();
    j["data"] = {{"path", "data/pairs.tsv"}};
    const std::string path = dir.file("course/lesson.json", j.dump());
    const LessonFile l = readLessonFile(path);
    CHECK(std::filesystem::path(l.path) == std::filesystem::path(dir.file("course/data/pairs.tsv")));
    CHECK(l.dataset.empty());
    // Written elsewhere, the path is relative to the new file and still finds the corpus.
    const std::string copy = dir.file("other/copy.json");
    std::filesystem::create_directories(dir.file("other"));
    writeLessonFile(copy, l);
    std::ifstream in(copy);
    CHECK(Json::parse(in)["data"]["path"] == "../course/data/pairs.tsv");
    CHECK(std::filesystem::path(readLessonFile(copy).path) == std::filesystem::path(l.path));
}

// Found by fuzz/FuzzLesson.cpp (fuzz/README.md): a lesson read by a relative file name kept its
// paths relative to the working directory (and written back with that name, "/tmp" became
// "../../tmp"); a NUL inside a path named the file before it; a key holding a line break broke the
// one-line message, and an empty key gave "unknown field" naming nothing.
TEST_CASE("a lesson's paths are absolute once read, also from a relative file name", "[lesson]") {
    test::TempDir dir;
    dir.file("course/data/pairs.tsv", "a b\tc d\n");
    Json j = minimal();
    j["data"] = {{"path", "data/pairs.tsv"}};
    const std::string absolute = dir.file("course/lesson.json", j.dump());
    const std::string relative = std::filesystem::relative(absolute).string();
    REQUIRE(std::filesystem::path(relative).is_relative());
    const LessonFile l = readLessonFile(relative);
    CHECK(l.file == relative);
    CHECK(std::filesystem::path(l.path).is_absolute());
    CHECK(std::filesystem::path(l.path) == std::filesystem::path(dir.file("course/data/pairs.tsv")));
    // An absolute path survives lessonToJson and parseLesson under the relative name.
    j["data"] = {{"path", dir.path.string()}};
    const LessonFile outside = parseLesson(j.dump(), relative);
    CHECK(parseLesson(lessonToJson(outside, relative), relative).path == outside.path);
    // The root however written ("//" stayed "//" in std::filesystem's normal form).
    for (const char* root : {"/", "//", "/..", "/./"}) {
        INFO(root);
        j["data"] = {{"path", root}};
        CHECK(parseLesson(j.dump(), relative).path == "/");
    }
    // A folder given with a trailing '/' or through "..", read back from elsewhere: the same string.
    for (const char* written : {"data/", "data/../data", "./data/."}) {
        INFO(written);
        j["data"] = {{"path", written}};
        const LessonFile folder = readLessonFile(dir.file("course/folder.json", j.dump()));
        CHECK(folder.path == dir.file("course/data"));
        const std::string copy = dir.file("copy.json");
        writeLessonFile(copy, folder);
        CHECK(readLessonFile(copy).path == folder.path);
    }
}

TEST_CASE("a lesson's error is one line naming the field, whatever the keys hold", "[lesson]") {
    test::TempDir dir;
    const std::string file = dir.file("lesson.json");
    dir.file("pairs.tsv", "a\tb\n");
    Json j = minimal();
    j["colo\nur"] = 1;
    CHECK(errorOf(dir, j) == file + ": colo\\nur: unknown field");
    j = minimal();
    j[""] = 1;
    CHECK(errorOf(dir, j) == file + ": \"\": unknown field");
    j = minimal();
    j["data"]["dataset"] = "kling\ron";
    CHECK_THAT(errorOf(dir, j), StartsWith(file + ": data.dataset: unknown dataset 'kling\\ron'"));
    j = minimal();
    j["data"] = {{"path", std::string("pairs.tsv\0.gone", 15)}};
    CHECK_THAT(errorOf(dir, j), StartsWith(file + ": data.path: must not contain a NUL character"));
}

TEST_CASE("a lesson file of deeply nested JSON is refused, not a stack overflow", "[lesson]") {
    // Found while fuzzing: the reader copied the "model" value, which recursed once per level, so a
    // 1 MB file nested half a million levels deep crashed it. Written as text: nlohmann's dump recurses too.
    test::TempDir dir;
    const std::size_t depth = 500000;  // within the 1 MB limit
    const std::string head = R"({"format": "attnlab-lesson", "version": 1, "id": "deep", "task": "translate",
        "title": "Deep", "card": "Deep.", "data": {"dataset": "copy"}, )";
    for (const char* field : {"model", "training", "probe", "view", "controls", "colour"}) {
        INFO(field);
        const std::string text = head + "\"" + field + "\": {\"hidden\": " + std::string(depth, '[') +
                                 std::string(depth, ']') + "}}";
        REQUIRE(text.size() < (1u << 20));
        const std::string file = dir.file("deep.json", text);
        const std::string error = test::inputErrorOf([&] { readLessonFile(file); });
        CHECK_THAT(error, StartsWith(file + ": " + field));
    }
}

TEST_CASE("a lesson written and read back is the same lesson", "[lesson]") {
    test::TempDir dir;
    for (const LessonFile& builtin : readLessonDir(kBuiltinDir)) {
        INFO(builtin.file);
        const std::string path = dir.file(builtin.id + ".json");
        writeLessonFile(path, builtin);
        const LessonFile back = readLessonFile(path);
        CHECK(back == builtin);
    }
    // One with every field set.
    LessonFile l;
    l.id = "everything";
    l.task = tasks::kTranslate;
    l.title.byLanguage = {{"en", "All"}, {"zh_CN", "全部"}};
    l.card.byLanguage = {{"en", "Every field."}};
    l.dataset = "toy-en-zh";
    l.size = 300;
    l.dataSeed = 7;
    l.maxLength = 12;
    ModelConfig c;
    c.architecture = Architecture::Transformer;
    c.heads = 2;
    c.dropout = 0.25f;
    l.model = toJson(c);
    l.training.epochs = 3;
    l.training.batchSize = 16;
    l.training.learningRate = 0.004;
    l.training.clip = 0.5;
    l.training.validationFraction = 0.2;
    l.training.teacherForcing = 0.75;
    l.seed = 9;
    l.probe = {{"sentence", "tom sees mary"}, {"translate", "mary sees tom"}};
    l.probeEveryBatches = 3;
    l.view = "heads";
    l.hidden = {"architecture", "heads"};
    l.locked = {"epochs"};
    const std::string path = dir.file("everything.json");
    writeLessonFile(path, l);
    LessonFile back = readLessonFile(path);
    CHECK(back == l);
    CHECK(modelConfigFromJson(parsableLessonModel(back.model)).heads == 2);
    // Only what differs from the defaults is written in "model".
    const Json written = Json::parse(lessonToJson(l, path));
    CHECK(written["model"].size() == 3);
    CHECK(written["model"]["architecture"] == "transformer");
}

TEST_CASE("the built-in lessons are looked for in a fixed order", "[lesson]") {
    test::TempDir dir;
    const std::vector<std::string> path = lessonSearchPath("/opt/attnlab/bin");
    REQUIRE(path.size() >= 2);
    CHECK(path[path.size() - 2] == "/opt/attnlab/share/attnlab/lessons");
    CHECK(path.back() == "/opt/attnlab/bin/lessons");
    std::filesystem::create_directories(dir.file("bin/lessons"));
    if (std::getenv("ATTNLAB_LESSON_DIR") == nullptr) CHECK(builtinLessonDir(dir.file("bin")) == dir.file("bin/lessons"));
    // Two lessons with one id in a folder: the second is refused, naming it.
    const std::string one = minimal().dump();
    dir.file("two/a.json", one);
    dir.file("two/b.json", one);
    CHECK_THAT(test::inputErrorOf([&] { readLessonDir(dir.file("two")); }),
               StartsWith(dir.file("two/b.json") + ": id: another lesson"));
}

TEST_CASE("a translation lesson's attention-loss fields are read, checked and written", "[lesson]") {
    const std::string base = R"({"format": "attnlab-lesson", "version": 1, "id": "g", "task": "translate",
        "title": {"en": "G"}, "card": {"en": "C"}, "data": {"dataset": "copy"}, "training": )";
    const LessonFile l =
        parseLesson(base + R"({"guided_alignment": 0.5, "coverage_penalty": 0.25, "alignment_head": [2, 3]}})", "g.json");
    REQUIRE(l.training.guidedAlignment);
    CHECK(*l.training.guidedAlignment == 0.5);
    CHECK(*l.training.coveragePenalty == 0.25);
    CHECK(*l.training.alignmentLayer == 1);
    CHECK(*l.training.alignmentHead == 2);
    CHECK(parseLesson(lessonToJson(l), "again.json").training == l.training);
    CHECK_THAT(test::inputErrorOf([&] { parseLesson(base + R"({"alignment_head": 2}})", "bad.json"); }),
               Contains("bad.json: training.alignment_head: must be [LAYER, HEAD]"));
    CHECK_THAT(test::inputErrorOf([&] { parseLesson(base + R"({"guided_alignment": -1}})", "bad.json"); }),
               Contains("bad.json: training.guided_alignment"));
}

TEST_CASE("a forecasting lesson's width is \"hidden\", as every task's, and d_model is the same field", "[lesson]") {
    test::TempDir dir;
    Json j = minimal();
    j["task"] = "forecast";
    j["data"] = {{"dataset", "seasonal"}};
    j["model"] = {{"hidden", 32}, {"heads", 2}};
    const LessonFile l = readLessonFile(dir.file("hidden.json", j.dump()));
    CHECK(forecastConfigFromJson(l.model).dModel == 32);
    // Written back with the lesson's name for it.
    const Json written = Json::parse(lessonToJson(l));
    CHECK(written["model"].contains("hidden"));
    CHECK_FALSE(written["model"].contains("d_model"));
    j["model"] = {{"d_model", 48}};
    CHECK(forecastConfigFromJson(readLessonFile(dir.file("d_model.json", j.dump())).model).dModel == 48);
    j["model"] = {{"hidden", 32}, {"d_model", 48}};
    CHECK_THAT(errorOf(dir, j), Contains("model.hidden: names the same setting as model.d_model; give one"));
}
