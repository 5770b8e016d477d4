#pragma once
// attnlab-cli's text classification task: its front end entry (ClassifierFront.cpp: inspect, the
// classification datasets, train's help) and its engine entry (ClassifierEngine.cpp: train, heads,
// explain, the needle, long-range and faithfulness experiments), and its own command, classify.
#include "CliTasks.h"
#include "EngineTasks.h"

namespace attnlab::cli {

FrontTask classifierFrontTask();
EngineTask classifierEngineTask();

int runClassify(const Args& args);
int runTrainClassifier(const Args& args);
int explainClassifier(const ArgParser& args, const std::string& modelPath);
int runNeedle(const Args& args);
int runLongRange(const Args& args);
int runFaithfulness(const Args& args);

}  // namespace attnlab::cli
