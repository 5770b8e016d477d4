#pragma once
// attnlab-cli's translation task (the default task): its front end entry (TranslationFront.cpp: inspect,
// datasets, train's help) and its engine entry (TranslationEngine.cpp: train, heads, explain, render,
// the bottleneck, complexity, long-range and positional experiments), and its own commands.
#include "CliTasks.h"
#include "EngineTasks.h"

namespace attnlab::cli {

FrontTask translationFrontTask();
EngineTask translationEngineTask();

// Its commands (Commands.h: ATTNLAB_ENGINE_COMMANDS) and its parts of the shared ones.
int trainTranslation(const Args& args);  // TrainTranslationCommand.cpp
int runTranslate(const Args& args);
int runNeighbours(const Args& args);
int runExport(const Args& args);  // every task's: the model file's task writes the package
int exportTranslation(const std::string& modelPath, const std::string& dir);
int renderTranslation(const Args& args);
int translationHeads(const Args& args, const std::string& modelPath);
int explainTranslation(const ArgParser& args, const std::string& modelPath);
int runBottleneck(const Args& args);
int runComplexity(const Args& args);
int runLongRange(const Args& args);
int runPositional(const Args& args);

}  // namespace attnlab::cli
