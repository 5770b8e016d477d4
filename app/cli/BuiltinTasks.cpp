// The built-in tasks' front end entries (CliTasks.h): one line per model task, in base/TaskIds.h's
// order. A new task adds its line here and its sources to app/CMakeLists.txt's front end list.
#include "CliTasks.h"
#include "classify/ClassifierCli.h"
#include "forecast/ForecastCli.h"
#include "images/ImagesCli.h"
#include "lm/LmCli.h"
#include "translate/TranslationCli.h"

namespace attnlab::cli {

std::vector<FrontTask> builtinFrontTasks() {
    return {translationFrontTask(), classifierFrontTask(), imageClassifierFrontTask(), captionerFrontTask(),
            forecastFrontTask(), lmFrontTask()};
}

}  // namespace attnlab::cli
