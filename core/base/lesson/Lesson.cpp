#include "base/lesson/Lesson.h"

#include "base/io/FileUtil.h"
#include "base/InputError.h"
#include "base/lesson/LessonSchema.h"
#include "base/TaskIds.h"
#include "base/text/ClassifyDatasets.h"  // kMinNeedleLength, kMaxNeedleLength

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <set>

namespace attnlab {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr std::uint64_t kMaxLessonBytes = 1 << 20;

// The lesson being read: its file name for the errors and its folder for relative paths.
struct Reader {
    std::string file;
    fs::path folder;

    // The message stays one line whatever the file's keys and strings hold: control characters
    // (a "\n" in a key, a dataset name, a path) are written as JSON escapes.
    [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
        throw InputError(file, 0, oneLine(field.empty() ? reason : field + ": " + reason));
    }
    static std::string oneLine(const std::string& text) {
        std::string out;
        for (const char c : text) {
            const auto u = static_cast<unsigned char>(c);
            if (u >= 0x20 && u != 0x7f) out += c;
            else if (c == '\n') out += "\\n";
            else if (c == '\r') out += "\\r";
            else if (c == '\t') out += "\\t";
            else {
                static const char* hex = "0123456789abcdef";
                out += "\\u00";
                out += hex[u >> 4];
                out += hex[u & 15];
            }
        }
        return out;
    }

    // Every key of `object` must be one of `known`.
    void onlyKnown(const Json& object, const std::string& prefix, std::initializer_list<const char*> known) const {
        for (auto it = object.begin(); it != object.end(); ++it) {
            const bool ok = std::any_of(known.begin(), known.end(), [&](const char* k) { return it.key() == k; });
            if (!ok) fail(prefix + (it.key().empty() ? "\"\"" : it.key()), "unknown field");  // "": unknown field
        }
    }

    std::string string(const Json& v, const std::string& field) const {
        if (!v.is_string()) fail(field, "must be a string");
        return v.get<std::string>();
    }
    std::int64_t integer(const Json& v, const std::string& field, std::int64_t low, std::int64_t high) const {
        if (!v.is_number_integer() && !v.is_number_unsigned()) fail(field, "must be a whole number");
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(high))
            fail(field, "must be between " + std::to_string(low) + " and " + std::to_string(high));
        const std::int64_t x = v.get<std::int64_t>();
        if (x < low || x > high)
            fail(field, "must be between " + std::to_string(low) + " and " + std::to_string(high) + ", got " +
                            std::to_string(x));
        return x;
    }
    double number(const Json& v, const std::string& field, double low, double high, bool openLow = false) const {
        if (!v.is_number()) fail(field, "must be a number");
        const double x = v.get<double>();
        if (!std::isfinite(x) || x < low || x > high || (openLow && x == low)) {
            fail(field, std::string("must be ") + (openLow ? "above " : "at least ") + Json(low).dump() +
                            " and at most " + Json(high).dump() + ", got " + Json(x).dump());
        }
        return x;
    }
    bool boolean(const Json& v, const std::string& field) const {
        if (!v.is_boolean()) fail(field, "must be true or false");
        return v.get<bool>();
    }
    const Json& object(const Json& v, const std::string& field) const {
        if (!v.is_object()) fail(field, "must be an object");
        return v;
    }
    // A path relative to the lesson's folder (or absolute), which must exist; made absolute (a lesson
    // read by a relative file name would otherwise keep a path relative to the working directory).
    std::string existingPath(const Json& v, const std::string& field) const {
        const std::string written = string(v, field);
        if (written.empty()) fail(field, "must not be empty");
        // (the file system would see only the part before it, so "a.tsv\u0000b" would name a.tsv)
        if (written.find('\0') != std::string::npos) fail(field, "must not contain a NUL character (\\u0000)");
        std::error_code ec;
        fs::path p = fs::path(written).is_absolute() ? fs::path(written) : folder / written;
        if (const fs::path a = fs::absolute(p, ec); !ec) p = a;
        // Normal form without a trailing '/' ("course/data/.." and "course/" are "course", "//" is "/"),
        // so that a path written relative to another file reads back as the same string.
        p = p.lexically_normal();
        if (!p.has_relative_path()) p = p.root_path();
        else if (!p.has_filename()) p = p.parent_path();
        if (!fs::exists(p, ec)) fail(field, "no such file or folder: " + p.string());
        return p.string();
    }
    LocalizedText text(const Json& v, const std::string& field) const {
        LocalizedText t;
        if (v.is_string()) {  // a lesson in one language
            t.byLanguage["en"] = v.get<std::string>();
        } else {
            if (!v.is_object()) fail(field, "must be an object of texts by language ({\"en\": \"...\", \"zh_CN\": \"...\"})");
            for (auto it = v.begin(); it != v.end(); ++it) {
                const std::string& lang = it.key();
                const bool wellFormed = !lang.empty() && lang.size() <= 16 &&
                                        std::all_of(lang.begin(), lang.end(), [](char c) {
                                            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
                                        });
                if (!wellFormed) fail(field + "." + lang, "not a language name (like en or zh_CN)");
                t.byLanguage[lang] = string(it.value(), field + "." + lang);
            }
        }
        if (t.byLanguage.count("en") == 0) fail(field + ".en", "missing: every text needs its English");
        if (t.byLanguage["en"].empty()) fail(field + ".en", "must not be empty");
        return t;
    }
};

// The fields of a configuration's JSON that come from the data or the model file, not a lesson.
bool isLessonModelField(const std::string& key) {
    for (const char* k : {"task", "source_vocab", "target_vocab", "vocabulary", "classes"})
        if (key == k) return false;
    return true;
}

bool isTask(const std::string& task) {
    for (const tasks::ModelTask& t : tasks::modelTasks())
        if (task == t.id) return true;
    return false;
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::string taskList() { return join(tasks::modelTaskIds()); }

// The model tasks a window task trains ("images": image-classify, caption), when it trains more
// than one: a lesson must name one of them.
std::vector<std::string> modelTasksOfWindowTask(const std::string& window) {
    std::vector<std::string> out;
    for (const tasks::ModelTask& t : tasks::modelTasks())
        if (window == t.window && window != t.id) out.emplace_back(t.id);
    return out;
}

// The task's schema; every model task has one (a task without any accepts only the common fields).
const LessonSchema& schemaOf(const std::string& task) {
    static const LessonSchema none;
    const LessonSchema* s = lessonSchemaOf(task);
    return s != nullptr ? *s : none;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The task's configuration parsed from its complete JSON (throws ConfigError), or false when the
// task has no configuration type known here.
bool checkModelJson(const std::string& task, const std::string& json) {
    const LessonSchema& schema = schemaOf(task);
    if (!schema.checkModel) return false;
    schema.checkModel(json);
    return true;
}

// The datasets a lesson of this task may name (empty: any).
std::vector<std::string> datasetsOf(const std::string& task) {
    const LessonSchema& schema = schemaOf(task);
    return schema.datasets ? schema.datasets() : std::vector<std::string>{};
}

// The probe fields of a task: name -> whether it is a path.
const std::vector<std::pair<std::string, bool>>& probeFieldsOf(const std::string& task) {
    return schemaOf(task).probeFields;
}

void parseData(const Reader& r, const Json& data, LessonFile& l) {
    r.object(data, "data");
    std::vector<std::string> known = {"dataset", "path", "size", "seed"};
    const std::vector<std::string>& own = schemaOf(l.task).dataFields;
    known.insert(known.end(), own.begin(), own.end());
    for (auto it = data.begin(); it != data.end(); ++it)
        if (!has(known, it.key())) r.fail("data." + it.key(), "unknown field");
    const bool hasDataset = data.contains("dataset"), hasPath = data.contains("path");
    if (hasDataset == hasPath) r.fail("data", "give either \"dataset\" (a built-in dataset) or \"path\" (a file or folder)");
    if (hasDataset) {
        l.dataset = r.string(data["dataset"], "data.dataset");
        const std::vector<std::string> names = datasetsOf(l.task);
        if (!names.empty() && std::find(names.begin(), names.end(), l.dataset) == names.end())
            r.fail("data.dataset", "unknown dataset '" + l.dataset + "' for task " + l.task + " (one of " + join(names) + ")");
        if (l.dataset.empty()) r.fail("data.dataset", "must not be empty");
    } else {
        l.path = r.existingPath(data["path"], "data.path");
    }
    if (data.contains("size")) l.size = static_cast<std::size_t>(r.integer(data["size"], "data.size", 1, 1000000));
    if (data.contains("seed"))
        l.dataSeed = static_cast<std::uint64_t>(r.integer(data["seed"], "data.seed", 0, std::numeric_limits<std::int64_t>::max()));
    if (data.contains("max_length")) l.maxLength = static_cast<int>(r.integer(data["max_length"], "data.max_length", 1, 200));
    if (data.contains("length"))
        l.length = static_cast<int>(r.integer(data["length"], "data.length", kMinNeedleLength, kMaxNeedleLength));
    if (data.contains("period")) l.period = static_cast<int>(r.integer(data["period"], "data.period", 2, 100000));
    if (data.contains("lag")) l.lag = static_cast<int>(r.integer(data["lag"], "data.lag", 1, 100000));
    if (data.contains("noise")) l.noise = r.number(data["noise"], "data.noise", 0.0, 1e6);
}

void parseModel(const Reader& r, const Json& model, LessonFile& l) {
    r.object(model, "model");
    const std::string defaults = defaultLessonModel(l.task);
    if (defaults.empty()) {  // a task whose configuration this reader does not know: kept as written
        l.model = model.dump();
        return;
    }
    Json merged = Json::parse(defaults);
    const auto& aliases = schemaOf(l.task).modelAliases;
    for (auto it = model.begin(); it != model.end(); ++it) {
        const std::string field = "model." + it.key();
        std::string key = it.key();  // the configuration's name for it
        for (const auto& [lessonName, configName] : aliases)
            if (key == lessonName) key = configName;
        if (key != it.key() && model.contains(key)) r.fail(field, "names the same setting as model." + key + "; give one");
        if (!merged.contains(key) || !isLessonModelField(key)) r.fail(field, "unknown field");
        const Json& d = merged[key];
        const Json& v = it.value();
        if (d.is_string() && !v.is_string()) r.fail(field, "must be a string");
        if (d.is_boolean() && !v.is_boolean()) r.fail(field, "must be true or false");
        if ((d.is_number_integer() || d.is_number_unsigned()) && !(v.is_number_integer() || v.is_number_unsigned()))
            r.fail(field, "must be a whole number");
        if (d.is_number_float() && !v.is_number()) r.fail(field, "must be a number");
        merged[key] = v;
    }
    l.model = merged.dump();
    try {
        checkModelJson(l.task, parsableLessonModel(l.model));
    } catch (const std::exception& e) {
        r.fail("model", e.what());
    }
}

void parseTraining(const Reader& r, const Json& t, LessonFile& l) {
    r.object(t, "training");
    std::vector<std::string> known = {"epochs", "batch_size", "learning_rate", "clip", "validation_fraction"};
    const std::vector<std::string>& own = schemaOf(l.task).trainingFields;
    known.insert(known.end(), own.begin(), own.end());
    for (auto it = t.begin(); it != t.end(); ++it)
        if (!has(known, it.key())) r.fail("training." + it.key(), "unknown field");
    LessonTraining& o = l.training;
    if (t.contains("epochs")) o.epochs = static_cast<int>(r.integer(t["epochs"], "training.epochs", 1, 10000));
    if (t.contains("batch_size")) o.batchSize = static_cast<int>(r.integer(t["batch_size"], "training.batch_size", 1, 4096));
    if (t.contains("learning_rate")) o.learningRate = r.number(t["learning_rate"], "training.learning_rate", 0.0, 10.0, true);
    if (t.contains("clip")) o.clip = r.number(t["clip"], "training.clip", 0.0, 1000.0);
    if (t.contains("validation_fraction"))
        o.validationFraction = r.number(t["validation_fraction"], "training.validation_fraction", 0.0, 0.9, true);
    if (t.contains("teacher_forcing")) o.teacherForcing = r.number(t["teacher_forcing"], "training.teacher_forcing", 0.0, 1.0);
    if (t.contains("coverage_penalty"))
        o.coveragePenalty = r.number(t["coverage_penalty"], "training.coverage_penalty", 0.0, 100.0);
    if (t.contains("guided_alignment"))
        o.guidedAlignment = r.number(t["guided_alignment"], "training.guided_alignment", 0.0, 100.0);
    if (t.contains("alignment_head")) {
        const Json& h = t["alignment_head"];
        if (!h.is_array() || h.size() != 2)
            r.fail("training.alignment_head", "must be [LAYER, HEAD], both counted from 1");
        o.alignmentLayer = static_cast<int>(r.integer(h[0], "training.alignment_head[0]", 1, 64)) - 1;
        o.alignmentHead = static_cast<int>(r.integer(h[1], "training.alignment_head[1]", 1, 64)) - 1;
    }
    if (t.contains("cosine")) o.cosine = r.boolean(t["cosine"], "training.cosine");
    if (t.contains("steps")) o.steps = static_cast<int>(r.integer(t["steps"], "training.steps", 1, 10000000));
    if (t.contains("warmup")) o.warmup = static_cast<int>(r.integer(t["warmup"], "training.warmup", 0, 10000000));
}

void parseProbe(const Reader& r, const Json& p, LessonFile& l) {
    r.object(p, "probe");
    const auto& fields = probeFieldsOf(l.task);
    for (auto it = p.begin(); it != p.end(); ++it) {
        const std::string field = "probe." + it.key();
        if (schemaOf(l.task).probeEveryBatches && it.key() == "every_batches") {
            l.probeEveryBatches = static_cast<int>(r.integer(it.value(), field, 1, 100000));
            continue;
        }
        const auto f = std::find_if(fields.begin(), fields.end(), [&](const auto& x) { return x.first == it.key(); });
        if (f == fields.end()) r.fail(field, "unknown field");
        l.probe[it.key()] = f->second ? r.existingPath(it.value(), field) : r.string(it.value(), field);
    }
}

std::vector<std::string> controls(const Reader& r, const Json& v, const std::string& field, const std::string& task) {
    if (!v.is_array()) r.fail(field, "must be a list of control names");
    const std::vector<std::string>& names = lessonControlNames(task);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string name = r.string(v[i], field + "[" + std::to_string(i) + "]");
        if (!names.empty() && std::find(names.begin(), names.end(), name) == names.end())
            r.fail(field + "[" + std::to_string(i) + "]", "unknown control '" + name + "' (one of " + join(names) + ")");
        out.push_back(name);
    }
    return out;
}

bool validId(const std::string& id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    });
}

Json textJson(const LocalizedText& t) {
    if (t.byLanguage.size() == 1 && t.byLanguage.count("en")) return t.byLanguage.at("en");
    Json j = Json::object();
    if (t.byLanguage.count("en")) j["en"] = t.byLanguage.at("en");
    for (const auto& [lang, text] : t.byLanguage)
        if (lang != "en") j[lang] = text;
    return j;
}

std::string relativeTo(const std::string& path, const std::string& file) {
    if (file.empty() || path.empty()) return path;
    std::error_code ec;
    const fs::path base = fs::absolute(fs::path(file), ec).parent_path();
    const fs::path target = fs::absolute(fs::path(path), ec);
    const fs::path rel = target.lexically_relative(base.lexically_normal());
    return rel.empty() ? path : rel.generic_string();
}

}  // namespace

std::string LocalizedText::in(const std::string& language) const {
    auto it = byLanguage.find(language);
    if (it != byLanguage.end() && !it->second.empty()) return it->second;
    const std::string base = language.substr(0, language.find_first_of("_-"));
    it = byLanguage.find(base);
    if (it != byLanguage.end() && !it->second.empty()) return it->second;
    for (const auto& [lang, text] : byLanguage)  // zh matches zh_CN
        if (lang.substr(0, lang.find_first_of("_-")) == base && !text.empty()) return text;
    it = byLanguage.find("en");
    return it == byLanguage.end() ? std::string() : it->second;
}

bool LessonTraining::operator==(const LessonTraining& o) const {
    return epochs == o.epochs && batchSize == o.batchSize && learningRate == o.learningRate && clip == o.clip &&
           validationFraction == o.validationFraction && teacherForcing == o.teacherForcing && cosine == o.cosine &&
           steps == o.steps && warmup == o.warmup &&
           coveragePenalty == o.coveragePenalty && guidedAlignment == o.guidedAlignment &&
           alignmentLayer == o.alignmentLayer && alignmentHead == o.alignmentHead;
}

bool LessonFile::operator==(const LessonFile& o) const {
    return id == o.id && task == o.task && title == o.title && card == o.card && dataset == o.dataset &&
           path == o.path && size == o.size && dataSeed == o.dataSeed && maxLength == o.maxLength &&
           length == o.length && period == o.period && lag == o.lag && noise == o.noise && Json::parse(model.empty() ? "{}" : model) == Json::parse(o.model.empty() ? "{}" : o.model) &&
           training == o.training && seed == o.seed && probe == o.probe && probeEveryBatches == o.probeEveryBatches &&
           view == o.view && hidden == o.hidden && locked == o.locked;
}

std::string parsableLessonModel(const std::string& model) {
    // The sizes the data gives (vocabularies, classes) are checked when there is data: here
    // they stand in with sizes in range, so that what is checked is the lesson's own choice.
    Json check = Json::parse(model);
    for (const char* k : {"source_vocab", "target_vocab", "vocabulary"})
        if (check.contains(k)) check[k] = 100;
    if (check.contains("classes")) check["classes"] = 10;
    return check.dump();
}

std::string defaultLessonModel(const std::string& task) {
    const LessonSchema& schema = schemaOf(task);
    return schema.defaultModel ? Json::parse(schema.defaultModel()).dump() : std::string();
}

const std::vector<std::string>& lessonControlNames(const std::string& task) {
    return schemaOf(task).controls;  // empty: a task whose controls are not listed accepts any name
}

LessonFile parseLesson(const std::string& text, const std::string& file) {
    Reader r{file, fs::path(file).parent_path()};
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::parse_error& e) {
        r.fail("", "not valid JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const Json::exception&) {
        r.fail("", "not valid JSON");
    }
    if (!j.is_object()) r.fail("", "not a JSON object");
    r.onlyKnown(j, "", {"format", "version", "id", "task", "title", "card", "data", "model", "training", "seed",
                        "probe", "view", "controls"});
    for (const char* required : {"format", "version", "id", "task", "title", "card", "data"})
        if (!j.contains(required)) r.fail(required, "missing (a lesson needs format, version, id, task, title, card and data)");
    if (r.string(j["format"], "format") != kLessonFormat)
        r.fail("format", "must be \"" + std::string(kLessonFormat) + "\"");
    const Json& version = j["version"];
    if (!version.is_number_integer() && !version.is_number_unsigned()) r.fail("version", "must be a whole number");
    if (version.get<std::int64_t>() != kLessonFormatVersion)
        r.fail("version", "version " + version.dump() + " is not supported (this AttnLab reads version " +
                              std::to_string(kLessonFormatVersion) + ")");

    LessonFile l;
    l.file = file;
    l.id = r.string(j["id"], "id");
    if (!validId(l.id)) r.fail("id", "must be 1 to 64 letters, digits, '-' or '_'");
    l.task = r.string(j["task"], "task");
    if (!isTask(l.task)) {
        const std::vector<std::string> models = modelTasksOfWindowTask(l.task);
        const std::string hint = models.empty() ? "" : " (a lesson names the model: " + join(models) + ")";
        r.fail("task", "unknown task '" + l.task + "' (one of " + taskList() + ")" + hint);
    }
    l.title = r.text(j["title"], "title");
    l.card = r.text(j["card"], "card");
    parseData(r, j["data"], l);
    // (by reference: a copy of the file's "model", as `cond ? j["model"] : Json::object()` made, recurses
    // once per level of nesting, and a 1 MB file of nested arrays overflowed the stack)
    const Json noModel = Json::object();
    parseModel(r, j.contains("model") ? static_cast<const Json&>(j["model"]) : noModel, l);
    if (j.contains("training")) parseTraining(r, j["training"], l);
    if (j.contains("seed"))
        l.seed = static_cast<std::uint64_t>(r.integer(j["seed"], "seed", 0, std::numeric_limits<std::int64_t>::max()));
    if (j.contains("probe")) parseProbe(r, j["probe"], l);
    if (j.contains("view")) {
        l.view = r.string(j["view"], "view");
        if (l.view.empty()) r.fail("view", "must not be empty (leave it out for the task's default view)");
    }
    if (j.contains("controls")) {
        const Json& c = r.object(j["controls"], "controls");
        r.onlyKnown(c, "controls.", {"hide", "lock"});
        if (c.contains("hide")) l.hidden = controls(r, c["hide"], "controls.hide", l.task);
        if (c.contains("lock")) l.locked = controls(r, c["lock"], "controls.lock", l.task);
    }
    return l;
}

LessonFile readLessonFile(const std::string& path) { return parseLesson(readFileLimited(path, kMaxLessonBytes), path); }

std::string lessonToJson(const LessonFile& l, const std::string& file) {
    Json j;
    j["format"] = kLessonFormat;
    j["version"] = kLessonFormatVersion;
    j["id"] = l.id;
    j["task"] = l.task;
    j["title"] = textJson(l.title);
    j["card"] = textJson(l.card);
    Json data = Json::object();
    if (!l.dataset.empty()) data["dataset"] = l.dataset;
    else data["path"] = relativeTo(l.path, file);
    if (l.size > 0) data["size"] = l.size;
    data["seed"] = l.dataSeed;
    if (l.maxLength > 0) data["max_length"] = l.maxLength;
    if (l.length > 0) data["length"] = l.length;
    if (l.period > 0) data["period"] = l.period;
    if (l.lag > 0) data["lag"] = l.lag;
    if (l.noise) data["noise"] = *l.noise;
    j["data"] = data;
    Json model = Json::object();
    if (!l.model.empty()) {
        const Json full = Json::parse(l.model);
        const std::string defaultsText = defaultLessonModel(l.task);
        const Json defaults = defaultsText.empty() ? Json::object() : Json::parse(defaultsText);
        const auto& aliases = schemaOf(l.task).modelAliases;
        for (auto it = full.begin(); it != full.end(); ++it) {
            if (!isLessonModelField(it.key())) continue;
            if (defaults.contains(it.key()) && defaults[it.key()] == it.value()) continue;
            std::string name = it.key();  // the lesson's name for it
            for (const auto& [lessonName, configName] : aliases)
                if (name == configName) name = lessonName;
            model[name] = it.value();
        }
    }
    j["model"] = model;
    Json training = Json::object();
    const LessonTraining& t = l.training;
    if (t.epochs) training["epochs"] = *t.epochs;
    if (t.batchSize) training["batch_size"] = *t.batchSize;
    if (t.learningRate) training["learning_rate"] = *t.learningRate;
    if (t.clip) training["clip"] = *t.clip;
    if (t.validationFraction) training["validation_fraction"] = *t.validationFraction;
    if (t.teacherForcing) training["teacher_forcing"] = *t.teacherForcing;
    if (t.coveragePenalty) training["coverage_penalty"] = *t.coveragePenalty;
    if (t.guidedAlignment) training["guided_alignment"] = *t.guidedAlignment;
    if (t.alignmentLayer && t.alignmentHead) training["alignment_head"] = Json::array({*t.alignmentLayer + 1, *t.alignmentHead + 1});
    if (t.cosine) training["cosine"] = *t.cosine;
    if (t.steps) training["steps"] = *t.steps;
    if (t.warmup) training["warmup"] = *t.warmup;
    j["training"] = training;
    if (l.seed) j["seed"] = *l.seed;
    Json probe = Json::object();
    const auto& fields = probeFieldsOf(l.task);
    for (const auto& entry : l.probe) {
        const std::string& name = entry.first;
        const std::string& value = entry.second;
        // (a named reference, not a structured binding: clang's C++17 cannot capture those)
        const auto f = std::find_if(fields.begin(), fields.end(), [&](const auto& x) { return x.first == name; });
        probe[name] = (f != fields.end() && f->second) ? relativeTo(value, file) : value;
    }
    if (l.probeEveryBatches > 0) probe["every_batches"] = l.probeEveryBatches;
    if (!probe.empty()) j["probe"] = probe;
    if (!l.view.empty()) j["view"] = l.view;
    if (!l.hidden.empty() || !l.locked.empty()) {
        Json c = Json::object();
        if (!l.hidden.empty()) c["hide"] = l.hidden;
        if (!l.locked.empty()) c["lock"] = l.locked;
        j["controls"] = c;
    }
    return j.dump(2) + "\n";
}

void writeLessonFile(const std::string& path, const LessonFile& lesson) {
    writeFileAtomically(path, lessonToJson(lesson, path));
}

std::vector<std::string> lessonSearchPath(const std::string& executableDir) {
    std::vector<std::string> out;
    if (const char* env = std::getenv("ATTNLAB_LESSON_DIR"); env && *env) out.emplace_back(env);
    const fs::path dir = executableDir.empty() ? fs::path(".") : fs::path(executableDir);
    out.push_back((dir / ".." / "share" / "attnlab" / "lessons").lexically_normal().string());
    out.push_back((dir / "lessons").lexically_normal().string());
    return out;
}

std::string builtinLessonDir(const std::string& executableDir) {
    for (const std::string& dir : lessonSearchPath(executableDir)) {
        std::error_code ec;
        if (fs::is_directory(dir, ec)) return dir;
    }
    return {};
}

std::vector<LessonFile> readLessonDir(const std::string& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    std::vector<LessonFile> out;
    std::set<std::string> ids;
    for (const fs::path& f : files) {
        out.push_back(readLessonFile(f.string()));
        if (!ids.insert(out.back().id).second)
            throw InputError(f.string(), 0, "id: another lesson in " + dir + " has the id '" + out.back().id + "'");
    }
    return out;
}

std::string executableDir() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : self.parent_path().string();
}

}  // namespace attnlab
