#pragma once
// What a lesson file of one model task may contain (base/lesson/Lesson.h reads and writes lessons through
// it): its built-in datasets, the data, training and probe fields beyond those every lesson has, its
// model's configuration JSON (the defaults a lesson's "model" overrides, and the check of the result)
// and the setup controls a lesson may hide or lock. Each task's folder in core/base makes its schema
// (translation/TranslationLessonSchema.h, ...); base/BuiltinTasks.cpp registers them, and a task made
// elsewhere (a test's own) registers its own with registerLessonSchema.
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

struct LessonSchema {
    std::string task;  // the model task (base/TaskIds.h)
    // The built-in datasets a lesson may name; an empty list accepts any name.
    std::function<std::vector<std::string>()> datasets;
    // Data fields beyond dataset, path, size and seed, of those LessonFile has: "max_length",
    // "length", "period", "lag", "noise".
    std::vector<std::string> dataFields;
    // Training fields beyond epochs, batch_size, learning_rate, clip and validation_fraction, of those
    // LessonTraining has: "teacher_forcing", "coverage_penalty", "guided_alignment", "alignment_head",
    // "cosine", "steps", "warmup".
    std::vector<std::string> trainingFields;
    // Probe fields: name and whether it is a path (made absolute when read, relative when written).
    std::vector<std::pair<std::string, bool>> probeFields;
    bool probeEveryBatches = false;  // the probe's "every_batches" (how often the probe is shown)
    // The configuration's complete JSON with every default; empty: a lesson's model is kept as written.
    std::function<std::string()> defaultModel;
    // The lesson's names of configuration keys that the configuration names otherwise: {"hidden",
    // "d_model"} lets a forecasting lesson say "hidden" as every other task's does. A lesson file may
    // give either; it is written with the lesson's name.
    std::vector<std::pair<std::string, std::string>> modelAliases;
    // Throws ConfigError when the complete JSON is not a valid configuration of the task.
    std::function<void(const std::string& json)> checkModel;
    // The stable names of the setup controls; empty accepts any name.
    std::vector<std::string> controls;
};

// Adds (or replaces) the schema of schema.task.
void registerLessonSchema(LessonSchema schema);
// The schema of a model task, or null for a task without one.
const LessonSchema* lessonSchemaOf(const std::string& task);

}  // namespace attnlab
