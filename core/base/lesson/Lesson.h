#pragma once
// Lesson files: a lesson is a small JSON file a teacher writes and shares (docs/lessons.md has the
// schema and an example). This is its reader, validator and writer, torch-free and Qt-free, so that
// the CLI front end (`attnlab-cli lessons`) and the window read the same files the same way.
//
// A file names a model task (base/TaskIds.h: translate, classify, image-classify, caption,
// forecast; the window's task follows from it, windowTaskOf), its title and card in several
// languages, the data (a built-in dataset or a path relative to the file), the model as the task's
// configuration JSON (the same as its checkpoint's, ModelConfig / ClassifierConfig / VitConfig /
// CaptionerConfig toJson; a file gives only what differs from the defaults), the training settings,
// the seed, the probe inputs, the view to open and the setup controls to hide or lock.
//
// Every problem is an InputError "FILE: FIELD: reason" naming the field ("data.size: must be a
// whole number", "model.heeds: unknown field", "task: unknown task 'images' ...").
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

inline constexpr const char* kLessonFormat = "attnlab-lesson";
inline constexpr int kLessonFormatVersion = 1;

// A text in several languages: "en" always, others by locale name ("zh_CN").
struct LocalizedText {
    std::map<std::string, std::string> byLanguage;
    // The text in `language` ("zh_CN"), else in its language without the country ("zh"), else English.
    std::string in(const std::string& language) const;
    bool operator==(const LocalizedText& o) const { return byLanguage == o.byLanguage; }
};

// The training settings a lesson fixes; an absent one keeps the task's default.
struct LessonTraining {
    std::optional<int> epochs;
    std::optional<int> batchSize;
    std::optional<double> learningRate;
    std::optional<double> clip;
    std::optional<double> validationFraction;
    std::optional<double> teacherForcing;  // translate only
    std::optional<double> coveragePenalty;  // translate only (TranslationTrainingOptions::coveragePenalty)
    std::optional<double> guidedAlignment;  // translate only
    std::optional<int> alignmentLayer, alignmentHead;  // translate only, 0-based ("alignment_head": [L, H] from 1)
    std::optional<bool> cosine;            // image-classify and caption only
    std::optional<int> steps, warmup;      // a run counted in updates (the language model): its length, its warm-up
    bool operator==(const LessonTraining& o) const;
};

struct LessonFile {
    std::string file;  // the path it was read from (empty for a lesson made in memory)
    std::string id;    // letters, digits, '-' and '_'; unique among the lessons shown
    std::string task;  // a model task id (tasks::modelTasks())
    LocalizedText title;  // the menu entry
    LocalizedText card;   // what the lesson shows and what to look for

    // data: a built-in dataset (with its options), or a file or folder.
    std::string dataset;      // empty when `path` is given
    std::string path;         // absolute once read (the file gives it relative to itself)
    std::size_t size = 0;     // items to generate or read; 0 = the task's default
    std::uint64_t dataSeed = 1;
    int maxLength = 0;        // translate: the dataset's longest sentence; 0 = its default
    int length = 0;           // classify (needle): words per text; 0 = the dataset's default
    int period = 0;           // forecast: the generated series' period; 0 = its default
    int lag = 0;              // forecast (echo): the lag; 0 = its default
    std::optional<double> noise;  // forecast: the noise's standard deviation; caption (scenes): the
                                  // background's noise (0..0.5); absent = its default

    // model: the task's configuration as its complete JSON (the defaults with the file's fields).
    std::string model;
    LessonTraining training;
    std::optional<std::uint64_t> seed;  // the training seed; absent = the task's default

    // probe: translate "sentence" (Live Probe) and "translate" (the Translate view's sentence);
    // classify "text"; image-classify and caption "image" (a path, absolute once read); forecast none.
    std::map<std::string, std::string> probe;
    int probeEveryBatches = 0;  // translate: probe every N batches; 0 = the default (5)

    std::string view;  // the view to open (a ViewNavigator name); empty = the task's default
    std::vector<std::string> hidden;  // setup controls not shown (lessonControlNames(task))
    std::vector<std::string> locked;  // setup controls shown but disabled

    bool operator==(const LessonFile& o) const;
};

// Parses and validates one lesson given as text; `file` names it in errors and is where relative
// paths start from (its folder). Throws InputError("FILE: FIELD: reason").
LessonFile parseLesson(const std::string& json, const std::string& file);
// Reads and validates a lesson file (at most 1 MB).
LessonFile readLessonFile(const std::string& path);
// The lesson as JSON text in the file format: the model as the fields that differ from the
// task's defaults; data and probe paths relative to `file`'s folder when `file` is given.
std::string lessonToJson(const LessonFile& lesson, const std::string& file = {});
// Writes lessonToJson(lesson, path) to path (atomically); throws std::runtime_error("PATH: reason").
void writeLessonFile(const std::string& path, const LessonFile& lesson);

// The task's configuration JSON with every default (what a lesson's "model" overrides).
std::string defaultLessonModel(const std::string& task);
// A lesson's model JSON with the sizes the data gives (vocabularies, classes; 0 in a lesson) set
// to sizes in range, so that the task's ...FromJson accepts it; reset them after parsing (the
// trainer fills them in from the data).
std::string parsableLessonModel(const std::string& model);
// The stable names of the setup controls a lesson of this task may hide or lock.
const std::vector<std::string>& lessonControlNames(const std::string& task);

// Where the built-in lessons are looked for, in order: $ATTNLAB_LESSON_DIR when set;
// EXEDIR/../share/attnlab/lessons (the install, and the build tree, which copies
// resources/lessons to build/share/attnlab/lessons); EXEDIR/lessons (a copy beside the binary).
std::vector<std::string> lessonSearchPath(const std::string& executableDir);
// The first folder of lessonSearchPath that exists, or empty.
std::string builtinLessonDir(const std::string& executableDir);
// The folder's *.json lessons in file-name order. Throws InputError for the first broken one
// and for two lessons with the same id.
std::vector<LessonFile> readLessonDir(const std::string& dir);
// The directory of the running program (/proc/self/exe), or "." when unknown.
std::string executableDir();

}  // namespace attnlab
