// attnlab-cli explain --model M: the model file's task explains (EngineTask::explain): a text
// classifier's label, a translation's output token, a vision model's class or caption word.
#include "ArgParser.h"
#include "Commands.h"
#include "EngineTasks.h"
#include "base/InputError.h"

namespace attnlab::cli {

int runExplain(const Args& argv) {
    ArgParser args(argv, {"--model", "--class", "--steps", "--output-token", "--boxes", "--word", "--objects"}, {"--json"});
    const std::string path = args.required("--model");
    const std::string task = modelTaskOfFile(path);  // a file that is no model: exit 4, saying why
    const EngineTask* t = engineTask(task);
    if (t == nullptr || !t->explain) throw UsageError("explain does not apply to '" + task + "' models (" + path + ")");
    return t->explain(args, path);
}

}  // namespace attnlab::cli
