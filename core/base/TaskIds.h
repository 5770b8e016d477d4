#pragma once
// The names of AttnLab's tasks, one list for every front end: the CLI's `train --task`, the
// `task` entry of every checkpoint's metadata, `attnlab --task`, the window's Task box, lesson
// definitions and the docs all use these strings.
//
// A model task is what one model does (translate, classify, image-classify, caption, forecast); the window
// groups them into its tasks (translate, classify, images, forecast: the Images task trains both vision models).
#include <string>
#include <vector>

namespace attnlab::tasks {

inline constexpr const char* kTranslate = "translate";
inline constexpr const char* kClassify = "classify";
inline constexpr const char* kImageClassify = "image-classify";
inline constexpr const char* kCaption = "caption";
inline constexpr const char* kForecast = "forecast";
inline constexpr const char* kImages = "images";  // the window's task for image-classify and caption

struct ModelTask {
    std::string id;      // the CLI's --task value and the checkpoint's "task"
    std::string window;  // the window's task that trains it
    // Checkpoints written before the "task" metadata existed hold this task (translation's).
    bool untaggedCheckpoints = false;
};

// Every model task, in the order the CLI lists them: the built-in ones, then those registered.
const std::vector<ModelTask>& modelTasks();
// Adds a model task (a task made outside this list: a test's own); an id already listed is ignored.
void registerModelTask(const ModelTask& task);
// The ids of modelTasks(), for usage messages and flag checks.
std::vector<std::string> modelTaskIds();
// The window's task for a model task or a window task id ("caption" -> "images", "images" ->
// "images"); empty for an unknown id.
std::string windowTaskOf(const std::string& id);
// The model task of checkpoints without "task" metadata; empty if none.
std::string untaggedCheckpointTask();

}  // namespace attnlab::tasks
