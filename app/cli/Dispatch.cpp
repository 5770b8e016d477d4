// attnlab-cli's dispatch. Contract (docs/ARCHITECTURE.md): exit 0 ok, 1 internal failure,
// 2 usage, 3 bad input data, 4 bad model file; every error is one line on stderr starting
// with "error:".
#include <exception>
#include <functional>
#include <iostream>
#include <new>

#include "ArgParser.h"
#include "CliTasks.h"
#include "Dispatch.h"
#include "EngineCommands.h"
#include "Version.h"
#include "base/InputError.h"

namespace attnlab::cli {
namespace {
char** gProgramArguments = nullptr;
}
void setProgramArguments(char** argv) { gProgramArguments = argv; }
char** programArguments() { return gProgramArguments; }

namespace {
// The CLI's words for core's setting problems: the flag that sets each one.
std::string flagOf(Setting setting) {
    switch (setting) {
    case Setting::Hidden: return "--hidden";
    case Setting::Embedding: return "--embedding";
    case Setting::Layers: return "--layers";
    case Setting::Heads: return "--heads";
    case Setting::FeedForward: return "--ff";
    case Setting::Dropout: return "--dropout";
    case Setting::LocalWindow: return "--window";
    case Setting::AttentionChunk: return "--chunk";
    case Setting::MaxLength: return "--max-len";
    case Setting::Epochs: return "--epochs";
    case Setting::BatchSize: return "--batch";
    case Setting::LearningRate: return "--lr";
    case Setting::Clip: return "--clip";
    case Setting::TeacherForcing: return "--teacher-forcing";
    case Setting::Threads: return "--threads";
    case Setting::ValidationFraction: return "--val-fraction";
    case Setting::MinFrequency: return "--min-freq";
    case Setting::Context: return "--context";
    case Setting::Horizon: return "--horizon";
    case Setting::ForecastPeriod: return "--period";
    case Setting::DecoderLayers: return "--decoder-layers";
    case Setting::SeriesLength: return "--length";
    case Setting::EchoLag: return "--lag";
    case Setting::CoveragePenalty: return "--coverage-penalty";
    case Setting::GuidedAlignment: return "--guided-alignment";
    case Setting::SourceVocabulary:
    case Setting::TargetVocabulary: break;  // no flag: the corpus decides
    }
    return settingName(setting);
}
}  // namespace

const CommandTable& frontCommands() {
    static const CommandTable commands = {{"datasets", runDatasets}, {"inspect", runInspect}, {"lessons", runLessons}};
    return commands;
}

bool isEngineCommand(const std::string& command) {
#define ATTNLAB_ENGINE_COMMAND_NAME(name, run) name,
    static const char* const kEngine[] = {ATTNLAB_ENGINE_COMMANDS(ATTNLAB_ENGINE_COMMAND_NAME)};
#undef ATTNLAB_ENGINE_COMMAND_NAME
    for (const char* c : kEngine)
        if (command == c) return true;
    return taskOwningCommand(command) != nullptr;  // a task's own command runs in the engine too
}

int dispatch(int argc, char** argv, const CommandTable& commands,
             const std::function<int(const std::string& command)>& otherwise) {
    setProgramArguments(argv);
    std::ios::sync_with_stdio(true);
    Args args(argv + 1, argv + argc);
    if (args.empty()) {
        printHelp("");
        return kUsage;
    }
    const std::string command = args.front();
    Args rest(args.begin() + 1, args.end());

    if (command == "--help" || command == "-h" || command == "help") {
        printHelp(rest.empty() ? "" : rest.front());
        return kOk;
    }
    if (command == "--version") {
        std::cout << "attnlab-cli " << kVersion << " (" << kGitRevision << ")\n";
        return kOk;
    }

    auto it = commands.find(command);
    if (it == commands.end() && !(otherwise && isEngineCommand(command))) {
        std::cerr << "error: unknown command '" << command << "' (try attnlab-cli --help)\n";
        return kUsage;
    }
    for (const auto& a : rest) {
        if (a == "--help" || a == "-h") {
            printHelp(command);
            return kOk;
        }
    }
    if (it == commands.end()) return otherwise(command);
    try {
        return it->second(rest);
    } catch (const UsageError& e) {
        std::cerr << "error: " << e.what() << " (see attnlab-cli " << command << " --help)\n";
        return kUsage;
    } catch (const ConfigError& e) {
        std::cerr << "error: " << (e.problem() ? describe(*e.problem(), flagOf) : std::string(e.what())) << "\n";
        return kUsage;
    } catch (const InputError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kBadData;
    } catch (const ModelFileError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kBadModel;
    } catch (const std::bad_alloc&) {
        std::cerr << "error: out of memory\n";
        return kInternal;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kInternal;
    }
}

}  // namespace attnlab::cli
