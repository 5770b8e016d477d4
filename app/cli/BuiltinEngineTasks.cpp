// The built-in tasks' engine entries (EngineTasks.h): one line per model task, in base/TaskIds.h's
// order. A new task adds its line here.
#include "EngineTasks.h"
#include "classify/ClassifierCli.h"
#include "forecast/ForecastCli.h"
#include "images/ImagesCli.h"
#include "lm/LmCli.h"
#include "translate/TranslationCli.h"

namespace attnlab::cli {

std::vector<EngineTask> builtinEngineTasks() {
    return {translationEngineTask(), classifierEngineTask(), imageClassifierEngineTask(), captionerEngineTask(),
            forecastEngineTask(), lmEngineTask()};
}

}  // namespace attnlab::cli
