// fuzz_lesson: the lesson file reader (base/lesson/Lesson.h, docs/lessons.md) on the bytes: parseLesson as
// "fuzz.json" (relative paths then start from the working directory), and readLessonFile of the
// bytes written to lesson.json in a scratch folder that holds the files the seeds name (pairs.tsv,
// data/pairs.tsv, a caption list, images, a series CSV, a folder of class folders), so that
// relative data and probe paths resolve.
// Checked beyond "no crash":
//   - only InputError escapes; its file() is the name given, its line() 0, its message
//     "NAME: FIELD: reason" (or "NAME: not valid JSON ..." / "NAME: not a JSON object") on one line,
//     FIELD starting with a top-level field of the format or being a refused unknown field;
//   - a lesson that reads is valid by the documented rules, checked here on its own: id, task,
//     English title and card, one of dataset or path, the documented ranges, the model parsing as
//     the task's configuration with only its own fields, the probe and control names of the task,
//     paths that name an existing file (no NUL inside);
//   - the same JSON read on its own (nlohmann) has no field the format does not know, at the top or
//     inside data, model, training, probe or controls: an unknown field is always refused;
//   - lessonToJson -> parseLesson gives the same lesson (every field compared), and lessonToJson of
//     that is the same text; writeLessonFile (course/written.json, one folder down, so relative paths
//     change) -> readLessonFile gives the same lesson;
//   - a lesson without paths reads the same both ways (as text and from the scratch file).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "FuzzCheck.h"
#include "FuzzScratch.h"
#include "base/InputError.h"
#include "base/lesson/Lesson.h"
#include "base/TaskIds.h"
#include "base/forecast/ForecastConfig.h"
#include "base/text/ClassifierConfig.h"
#include "base/text/ClassifyDatasets.h"
#include "base/translation/ModelConfig.h"
#include "base/vision/VisionConfig.h"

namespace {

using attnlab::LessonFile;
using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

const attnlab::fuzz::ScratchDir& scratch() {
    static const attnlab::fuzz::ScratchDir dir;
    static const bool filled = [] {
        dir.write("pairs.tsv", "a b\tc d\n");
        dir.write("data/pairs.tsv", "tom chases jerry\t汤姆 追 杰瑞\n");
        dir.write("a b.tsv", "x\ty\n");
        dir.write("captions.tsv", "images/a.png\ta red ball\n");
        dir.write("images/a.png", "not really a png: the reader only checks that it exists");
        dir.write("series.csv", "t,y\n0,1\n1,2\n");
        dir.write("glyphs/A/0.png", "");
        dir.folder("course");
        return true;
    }();
    (void)filled;
    return dir;
}

const std::vector<const char*> kTopFields = {"format", "version", "id",    "task",  "title", "card",    "data",
                                              "model",  "training", "seed", "probe", "view",  "controls"};

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool oneOf(const std::string& s, const std::vector<const char*>& names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

void checkError(const attnlab::InputError& e, const std::string& name) {
    const std::string what = e.what();
    FUZZ_CHECK(e.file() == name);
    FUZZ_CHECK(e.line() == 0);
    FUZZ_CHECK(startsWith(what, name + ": "));
    FUZZ_CHECK(what.find('\n') == std::string::npos);
    FUZZ_CHECK(what.find('\r') == std::string::npos);
    const std::string& reason = e.reason();
    if (startsWith(reason, "not valid JSON") || reason == "not a JSON object") return;
    // "FIELD: reason": a field of the format (top-level, or inside one: "data.size", "controls.lock[1]"),
    // or an unknown one refused as such.
    bool namesField = reason.size() > 15 && reason.compare(reason.size() - 15, 15, ": unknown field") == 0;
    for (const char* f : kTopFields) {
        const std::string field = f;
        if (startsWith(reason, field + ": ") || startsWith(reason, field + ".") || startsWith(reason, field + "["))
            namesField = true;
    }
    if (!namesField) std::fprintf(stderr, "reason: %s\n", reason.c_str());
    FUZZ_CHECK(namesField);
}

bool validLanguage(const std::string& lang) {
    return !lang.empty() && lang.size() <= 16 && std::all_of(lang.begin(), lang.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
}

void checkText(const attnlab::LocalizedText& t) {
    FUZZ_CHECK(t.byLanguage.count("en") == 1);
    FUZZ_CHECK(!t.byLanguage.at("en").empty());
    for (const auto& entry : t.byLanguage) FUZZ_CHECK(validLanguage(entry.first));
}

// A path the reader accepted names an existing file or folder, by the whole string.
void checkPath(const std::string& path) {
    FUZZ_CHECK(!path.empty());
    FUZZ_CHECK(path.find('\0') == std::string::npos);
    std::error_code ec;
    FUZZ_CHECK(fs::exists(path, ec));
}

void checkModel(const LessonFile& l) {
    const Json model = Json::parse(l.model);
    const Json defaults = Json::parse(attnlab::defaultLessonModel(l.task));
    FUZZ_CHECK(model.is_object());
    for (auto it = model.begin(); it != model.end(); ++it) FUZZ_CHECK(defaults.contains(it.key()));
    const std::string parsable = attnlab::parsableLessonModel(l.model);
    try {
        if (l.task == attnlab::tasks::kTranslate) attnlab::modelConfigFromJson(parsable);
        if (l.task == attnlab::tasks::kClassify) attnlab::classifierConfigFromJson(parsable);
        if (l.task == attnlab::tasks::kImageClassify) attnlab::vitConfigFromJson(parsable);
        if (l.task == attnlab::tasks::kCaption) attnlab::captionerConfigFromJson(parsable);
        if (l.task == attnlab::tasks::kForecast) attnlab::forecastConfigFromJson(parsable);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "model: %s\n", e.what());
        attnlab::fuzz::invariantFailed("a lesson's model parses as the task's configuration", __FILE__, __LINE__);
    }
}

bool within(const std::optional<double>& x, double low, double high, bool openLow) {
    return !x || (std::isfinite(*x) && *x >= low && *x <= high && !(openLow && *x == low));
}
bool within(const std::optional<int>& x, int low, int high) { return !x || (*x >= low && *x <= high); }

void checkLesson(const LessonFile& l, const std::string& name) {
    using namespace attnlab;
    FUZZ_CHECK(l.file == name);
    FUZZ_CHECK(!l.id.empty() && l.id.size() <= 64);
    FUZZ_CHECK(std::all_of(l.id.begin(), l.id.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    }));
    const auto& ids = tasks::modelTasks();
    FUZZ_CHECK(std::any_of(ids.begin(), ids.end(), [&](const tasks::ModelTask& t) { return l.task == t.id; }));
    checkText(l.title);
    checkText(l.card);
    FUZZ_CHECK(l.dataset.empty() != l.path.empty());
    if (!l.path.empty()) checkPath(l.path);
    FUZZ_CHECK(l.size <= 1000000);
    FUZZ_CHECK(l.dataSeed <= static_cast<std::uint64_t>(INT64_MAX));
    FUZZ_CHECK(l.maxLength >= 0 && l.maxLength <= 200 && (l.maxLength == 0 || l.task == tasks::kTranslate));
    // (kMinNeedleLength..kMaxNeedleLength = 5..65536; docs/lessons.md says 5 to 200)
    FUZZ_CHECK((l.length == 0 || (l.length >= kMinNeedleLength && l.length <= kMaxNeedleLength)) &&
               (l.length == 0 || l.task == tasks::kClassify));
    FUZZ_CHECK(l.period >= 0 && l.period <= 100000 && (l.period == 0 || l.task == tasks::kForecast));
    FUZZ_CHECK(l.lag >= 0 && l.lag <= 100000 && (l.lag == 0 || l.task == tasks::kForecast));
    FUZZ_CHECK(!l.noise || (l.task == tasks::kForecast && within(l.noise, 0.0, 1e6, false)));
    checkModel(l);
    const LessonTraining& t = l.training;
    FUZZ_CHECK(within(t.epochs, 1, 10000));
    FUZZ_CHECK(within(t.batchSize, 1, 4096));
    FUZZ_CHECK(within(t.learningRate, 0.0, 10.0, true));
    FUZZ_CHECK(within(t.clip, 0.0, 1000.0, false));
    FUZZ_CHECK(within(t.validationFraction, 0.0, 0.9, true));
    FUZZ_CHECK(within(t.teacherForcing, 0.0, 1.0, false) && (!t.teacherForcing || l.task == tasks::kTranslate));
    FUZZ_CHECK(!t.cosine || l.task == tasks::kImageClassify || l.task == tasks::kCaption);
    FUZZ_CHECK(!l.seed || *l.seed <= static_cast<std::uint64_t>(INT64_MAX));
    for (const auto& [key, value] : l.probe) {
        if (l.task == tasks::kTranslate) FUZZ_CHECK(key == "sentence" || key == "translate");
        else if (l.task == tasks::kClassify) FUZZ_CHECK(key == "text");
        else if (l.task == tasks::kImageClassify || l.task == tasks::kCaption) {
            FUZZ_CHECK(key == "image");
            checkPath(value);
        } else {
            FUZZ_CHECK(false);  // forecast: no probe fields
        }
    }
    FUZZ_CHECK(l.probeEveryBatches >= 0 && l.probeEveryBatches <= 100000 &&
               (l.probeEveryBatches == 0 || l.task == tasks::kTranslate));
    const std::vector<std::string>& names = lessonControlNames(l.task);
    for (const std::vector<std::string>* list : {&l.hidden, &l.locked})
        for (const std::string& c : *list)
            if (!names.empty()) FUZZ_CHECK(std::find(names.begin(), names.end(), c) != names.end());
}

// The JSON of a lesson that read, read on its own: no field the format does not know.
void checkNoUnknownField(const std::string& text, const LessonFile& l) {
    using namespace attnlab;
    const Json j = Json::parse(text);  // it read, so it parses
    FUZZ_CHECK(j.is_object());
    for (auto it = j.begin(); it != j.end(); ++it) FUZZ_CHECK(oneOf(it.key(), kTopFields));
    std::vector<const char*> data = {"dataset", "path", "size", "seed"};
    if (l.task == tasks::kTranslate) data.push_back("max_length");
    if (l.task == tasks::kClassify) data.push_back("length");
    if (l.task == tasks::kForecast) data.insert(data.end(), {"period", "lag", "noise"});
    for (auto it = j["data"].begin(); it != j["data"].end(); ++it) FUZZ_CHECK(oneOf(it.key(), data));
    if (j.contains("model")) {
        const Json defaults = Json::parse(defaultLessonModel(l.task));
        for (auto it = j["model"].begin(); it != j["model"].end(); ++it) {
            FUZZ_CHECK(defaults.contains(it.key()));
            FUZZ_CHECK(!oneOf(it.key(), {"task", "source_vocab", "target_vocab", "vocabulary", "classes"}));
        }
    }
    if (j.contains("training")) {
        std::vector<const char*> training = {"epochs", "batch_size", "learning_rate", "clip", "validation_fraction"};
        if (l.task == tasks::kTranslate) training.push_back("teacher_forcing");
        if (l.task == tasks::kImageClassify || l.task == tasks::kCaption) training.push_back("cosine");
        for (auto it = j["training"].begin(); it != j["training"].end(); ++it) FUZZ_CHECK(oneOf(it.key(), training));
    }
    if (j.contains("probe")) {
        std::vector<const char*> probe;
        if (l.task == tasks::kTranslate) probe = {"sentence", "translate", "every_batches"};
        if (l.task == tasks::kClassify) probe = {"text"};
        if (l.task == tasks::kImageClassify || l.task == tasks::kCaption) probe = {"image"};
        for (auto it = j["probe"].begin(); it != j["probe"].end(); ++it) FUZZ_CHECK(oneOf(it.key(), probe));
    }
    if (j.contains("controls"))
        for (auto it = j["controls"].begin(); it != j["controls"].end(); ++it)
            FUZZ_CHECK(oneOf(it.key(), {"hide", "lock"}));
}

// Every field of LessonFile but `file` (which names where each copy was read from).
void checkSame(const LessonFile& a, const LessonFile& b) {
    FUZZ_CHECK(a.id == b.id);
    FUZZ_CHECK(a.task == b.task);
    FUZZ_CHECK(a.title == b.title);
    FUZZ_CHECK(a.card == b.card);
    FUZZ_CHECK(a.dataset == b.dataset);
    if (a.path != b.path) std::fprintf(stderr, "path: '%s' became '%s'\n", a.path.c_str(), b.path.c_str());
    FUZZ_CHECK(a.path == b.path);
    FUZZ_CHECK(a.size == b.size);
    FUZZ_CHECK(a.dataSeed == b.dataSeed);
    FUZZ_CHECK(a.maxLength == b.maxLength);
    FUZZ_CHECK(a.length == b.length);
    FUZZ_CHECK(a.period == b.period);
    FUZZ_CHECK(a.lag == b.lag);
    FUZZ_CHECK(a.noise == b.noise);
    FUZZ_CHECK(Json::parse(a.model) == Json::parse(b.model));
    FUZZ_CHECK(a.training.epochs == b.training.epochs);
    FUZZ_CHECK(a.training.batchSize == b.training.batchSize);
    FUZZ_CHECK(a.training.learningRate == b.training.learningRate);
    FUZZ_CHECK(a.training.clip == b.training.clip);
    FUZZ_CHECK(a.training.validationFraction == b.training.validationFraction);
    FUZZ_CHECK(a.training.teacherForcing == b.training.teacherForcing);
    FUZZ_CHECK(a.training.cosine == b.training.cosine);
    FUZZ_CHECK(a.seed == b.seed);
    FUZZ_CHECK(a.probe == b.probe);
    FUZZ_CHECK(a.probeEveryBatches == b.probeEveryBatches);
    FUZZ_CHECK(a.view == b.view);
    FUZZ_CHECK(a.hidden == b.hidden);
    FUZZ_CHECK(a.locked == b.locked);
    FUZZ_CHECK(a == b);  // the type's own operator== agrees
}

// Read back what lessonToJson / writeLessonFile wrote: the same lesson, and the text a fixed point.
void roundTrip(const LessonFile& l, const std::string& name, bool throughFile) {
    try {
        const std::string text = attnlab::lessonToJson(l, name);
        const LessonFile again = attnlab::parseLesson(text, name);
        checkSame(l, again);
        FUZZ_CHECK(attnlab::lessonToJson(again, name) == text);
        if (throughFile) {
            const std::string written = (scratch().path() / "course" / "written.json").string();
            attnlab::writeLessonFile(written, l);
            const LessonFile back = attnlab::readLessonFile(written);
            FUZZ_CHECK(back.file == written);
            checkSame(l, back);
        }
    } catch (const attnlab::InputError& e) {
        std::fprintf(stderr, "round trip: %s\n", e.what());
        attnlab::fuzz::invariantFailed("a lesson written by lessonToJson / writeLessonFile reads back", __FILE__,
                                       __LINE__);
    }
}

bool hasPaths(const LessonFile& l) { return !l.path.empty() || l.probe.count("image") != 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = attnlab::fuzz::bytesOf(data, size);

    std::optional<LessonFile> fromText;
    const std::string name = "fuzz.json";
    try {
        fromText = attnlab::parseLesson(text, name);
    } catch (const attnlab::InputError& e) {
        checkError(e, name);
    }
    if (fromText) {
        checkLesson(*fromText, name);
        checkNoUnknownField(text, *fromText);
        roundTrip(*fromText, name, false);
    }

    const std::string path = scratch().write("lesson.json", text);
    std::optional<LessonFile> fromFile;
    try {
        fromFile = attnlab::readLessonFile(path);
    } catch (const attnlab::InputError& e) {
        checkError(e, path);
    }
    if (fromFile) {
        checkLesson(*fromFile, path);
        checkNoUnknownField(text, *fromFile);
        roundTrip(*fromFile, path, true);
    }

    // Without paths, where the file is cannot matter.
    if (fromText && !hasPaths(*fromText)) {
        FUZZ_CHECK(fromFile.has_value());
        checkSame(*fromText, *fromFile);
    }
    if (fromFile && !hasPaths(*fromFile)) FUZZ_CHECK(fromText.has_value());
    return 0;
}
