// attnlab-cli-engine: every command, LibTorch loaded. attnlab-cli (main.cpp) answers what needs
// no model itself and executes this program, with the same arguments, for the rest.
#include "Dispatch.h"

int main(int argc, char** argv) {
    using namespace attnlab::cli;
    static const CommandTable commands = [] {
        CommandTable all = frontCommands();
        all.insert({{"train", runTrain},       {"translate", runTranslate}, {"render", runRender},
                    {"experiment", runExperiment}, {"export", runExport},   {"classify", runClassify},
                    {"explain", runExplain},   {"look", runLook}});
        return all;
    }();
    return dispatch(argc, argv, commands);
}
