// attnlab-cli heads: each attention head of a Transformer measured over a data set: the change in
// loss and in the task's metric when it alone is switched off, its gradient importance (Michel et
// al. 2019), and the pruning curves. The model file's task measures it (EngineTask::heads); the
// printing the tasks share is HeadStudyOutput.h.
#include "ArgParser.h"
#include "Commands.h"
#include "EngineTasks.h"
#include "base/InputError.h"
#include "base/TaskIds.h"

namespace attnlab::cli {

namespace {

// The value of --model (or --model=PATH) before the flags are parsed: each task reads its own data
// flags, so the model file decides which parser the command builds.
std::string modelArgument(const Args& argv) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        if (argv[i] == "--model" && i + 1 < argv.size()) return argv[i + 1];
        if (argv[i].rfind("--model=", 0) == 0) return argv[i].substr(8);
    }
    return {};
}

}  // namespace

int runHeads(const Args& argv) {
    const std::string modelPath = modelArgument(argv);
    // Without --model the default task's parser says what is missing.
    const std::string task = modelPath.empty() ? tasks::modelTaskIds().front() : modelTaskOfFile(modelPath);
    const EngineTask* t = engineTask(task);
    if (t == nullptr) throw UsageError("heads does not know '" + task + "' models (" + modelPath + ")");
    if (!t->heads) throw UsageError("heads needs a Transformer model (" + modelPath + " is " + t->noHeads + ")");
    return t->heads(argv, modelPath);
}

}  // namespace attnlab::cli
