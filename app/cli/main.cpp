// attnlab-cli: the headless face of AttnLab. Contract (docs/ARCHITECTURE.md): exit 0 ok,
// 1 internal failure, 2 usage, 3 bad input data, 4 bad model file; every error is
// one line on stderr starting with "error:".
#include <cstdio>
#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <new>

#include "ArgParser.h"
#include "Commands.h"
#include "Version.h"
#include "base/InputError.h"
#include "engine/Trainer.h"

using namespace attnlab;
using namespace attnlab::cli;

namespace attnlab::cli {
namespace {
char** gProgramArguments = nullptr;
}
void setProgramArguments(char** argv) { gProgramArguments = argv; }
char** programArguments() { return gProgramArguments; }

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
    case Setting::MaxLength: return "--max-len";
    case Setting::Epochs: return "--epochs";
    case Setting::BatchSize: return "--batch";
    case Setting::LearningRate: return "--lr";
    case Setting::Clip: return "--clip";
    case Setting::TeacherForcing: return "--teacher-forcing";
    case Setting::Threads: return "--threads";
    case Setting::ValidationFraction: return "--val-fraction";
    case Setting::MinFrequency: return "--min-freq";
    case Setting::SourceVocabulary:
    case Setting::TargetVocabulary: break;  // no flag: the corpus decides
    }
    return settingName(setting);
}
}  // namespace attnlab::cli

int main(int argc, char** argv) {
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

    static const std::map<std::string, std::function<int(const Args&)>> commands = {
        {"datasets", runDatasets}, {"inspect", runInspect},     {"train", runTrain},
        {"translate", runTranslate}, {"render", runRender},     {"experiment", runExperiment}, {"export", runExport},
        {"classify", runClassify},   {"explain", runExplain},     {"look", runLook},
    };
    auto it = commands.find(command);
    if (it == commands.end()) {
        std::cerr << "error: unknown command '" << command << "' (try attnlab-cli --help)\n";
        return kUsage;
    }
    for (const auto& a : rest) {
        if (a == "--help" || a == "-h") {
            printHelp(command);
            return kOk;
        }
    }
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
