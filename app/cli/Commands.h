#pragma once
// attnlab-cli subcommands. Each takes the arguments after its name and returns the
// process exit code; errors are thrown and mapped to exit codes by main().
#include <functional>
#include <string>
#include <vector>

namespace attnlab::cli {

enum ExitCode { kOk = 0, kInternal = 1, kUsage = 2, kBadData = 3, kBadModel = 4, kInterrupted = 130 };

using Args = std::vector<std::string>;

// A command: the arguments after its name; returns the exit code.
using Command = std::function<int(const Args&)>;

// The commands every task shares; each finds the task's own part in CliTasks.h / EngineTasks.h.
int runDatasets(const Args& args);
int runInspect(const Args& args);
// lessons: the built-in lessons, or one lesson file checked (front end: no LibTorch).
int runLessons(const Args& args);
int runTrain(const Args& args);
int runRender(const Args& args);
int runExperiment(const Args& args);
int runExplain(const Args& args);
// heads: each head of a Transformer switched off in turn, its importance, pruning curves.
int runHeads(const Args& args);

// The last line of a training run ("saved M" or "interrupted: model saved to M") and its exit code.
int reportSaved(bool interrupted, const std::string& out);

// The process's argv, for commands that re-execute the program (see
// preferFastBlasKernels): they do so only once their arguments are known to be valid,
// so usage errors stay fast.
void setProgramArguments(char** argv);
char** programArguments();

// Help text per command ("" = overview). Returns false for an unknown command.
bool printHelp(const std::string& command);

}  // namespace attnlab::cli
