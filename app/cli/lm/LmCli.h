#pragma once
// attnlab-cli's language-model task (`--task lm`): its front end entry (LmFront.cpp: the induction
// set in `datasets` and its writer, inspect, train's help, the help of its own commands) and its
// engine entry (LmEngine.cpp: train; generate, attend and detect).
#include <set>
#include <string>

#include "CliTasks.h"
#include "EngineTasks.h"
#include "base/lm/LmText.h"

namespace attnlab::cli {

FrontTask lmFrontTask();
EngineTask lmEngineTask();

// The data flags (--text FILE [--plain] | --dataset repeats [--size N --data-seed S], --tokens) and
// the corpus they name, cut to `context` tokens per document. InputError (exit 3) for a bad file.
const std::set<std::string>& lmDataFlags();
LmCorpus loadLmCorpus(const ArgParser& args, int context);

int runTrainLm(const Args& args);
int runGenerate(const Args& args);
int runAttend(const Args& args);
int runDetect(const Args& args);

}  // namespace attnlab::cli
