#pragma once
// The commands that need the engine (LibTorch), each with the function that runs it: the one list of
// them. The front end (main.cpp, no LibTorch) uses only the names (isEngineCommand) and hands these
// commands to attnlab-cli-engine, which builds its command table from the same list (EngineMain.cpp).
// A new engine command is one line here, its function (declared in its task's header) and its help
// (Help.cpp).
#include "Commands.h"
#include "classify/ClassifierCli.h"
#include "forecast/ForecastCli.h"
#include "images/ImagesCli.h"
#include "translate/TranslationCli.h"

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
