#pragma once
// attnlab-cli's language-model task (`--task lm`): its front end entry (LmFront.cpp: the induction
// set in `datasets` and its writer, inspect, train's help, the help of its own commands) and its
// engine entry (LmEngine.cpp: train; generate, attend and detect; LmExport.cpp: export).
#include <set>
#include <string>

#include "CliTasks.h"
#include "EngineTasks.h"
#include "base/lm/LmText.h"

namespace attnlab::cli {

FrontTask lmFrontTask();
EngineTask lmEngineTask();

// The data flags (--text FILE [--plain] | --dataset repeats [--size N --data-seed S] | --dataset gettext
// [--lang LANG --locale-dir DIR] | --dataset fortunes [--fortunes-dir DIR], --tokens [--bpe N | --vocab
// DIR|FILE --merges FILE]) and the corpus they name, cut to `context` tokens per document. InputError
// (exit 3) for a bad file (GPT-2's files included) or a dataset that is not installed.
const std::set<std::string>& lmDataFlags();
LmCorpus loadLmCorpus(const ArgParser& args, int context);

int runTrainLm(const Args& args);
int runGenerate(const Args& args);
int runAttend(const Args& args);
int runDetect(const Args& args);
// export --model M --pytorch DIR: DIR/attnlab_lm.py (LmExport.cpp).
int exportLmPytorch(const std::string& modelPath, const std::string& dir);

}  // namespace attnlab::cli
