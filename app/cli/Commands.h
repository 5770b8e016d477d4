#pragma once
// attnlab-cli subcommands. Each takes the arguments after its name and returns the
// process exit code; errors are thrown and mapped to exit codes by main().
#include <string>
#include <vector>

namespace attnlab::cli {

enum ExitCode { kOk = 0, kInternal = 1, kUsage = 2, kBadData = 3, kBadModel = 4, kInterrupted = 130 };

using Args = std::vector<std::string>;

int runDatasets(const Args& args);
int runInspect(const Args& args);
// lessons: the built-in lessons, or one lesson file checked (front end: no LibTorch).
int runLessons(const Args& args);
int runTrain(const Args& args);
int runTranslate(const Args& args);
int runRender(const Args& args);
int runExperiment(const Args& args);
int runExport(const Args& args);
int runClassify(const Args& args);
int runExplain(const Args& args);
class ArgParser;
// explain --model VIT IMAGE and explain --model CAPTIONER --word I IMAGE (runExplain hands over),
// and experiment deletion.
int explainImage(const ArgParser& args, const std::string& modelPath, bool captioner);
int runDeletionExperiment(const Args& args);
// `train --task classify` (runTrain hands over).
int runTrainClassifier(const Args& args);
// `train --task image-classify` and `train --task caption`.
int runTrainImages(const Args& args);
int runTrainCaptioner(const Args& args);
// `train --task forecast`.
int runTrainForecaster(const Args& args);
// forecast: a forecaster's points at a position of a series with its attention, or --evaluate.
int runForecast(const Args& args);
// look: a vision model's prediction or caption with its attention, as JSON.
int runLook(const Args& args);
// heads: each head of a translation Transformer switched off in turn, its importance, pruning curves.
int runHeads(const Args& args);
// neighbours: the corpus tokens nearest (cosine) to one token's encoder state (exBERT's search).
int runNeighbours(const Args& args);
// The commands that need the engine (LibTorch), each with the function that runs it: the one
// list of them. The front end (main.cpp, no LibTorch) uses only the names (isEngineCommand) and
// hands these commands to attnlab-cli-engine, which builds its command table from the same list
// (EngineMain.cpp). A new engine command is one line here, its function and its help (Help.cpp).
#define ATTNLAB_ENGINE_COMMANDS(X) \
    X("train", runTrain)           \
    X("translate", runTranslate)   \
    X("render", runRender)         \
    X("experiment", runExperiment) \
    X("export", runExport)         \
    X("classify", runClassify)     \
    X("explain", runExplain)       \
    X("look", runLook)             \
    X("heads", runHeads)           \
    X("neighbours", runNeighbours) \
    X("forecast", runForecast)

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
