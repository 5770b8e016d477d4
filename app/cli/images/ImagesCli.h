#pragma once
// attnlab-cli's two vision model tasks (the window's Images task): the ViT (image-classify) and the
// captioner (caption). Their front end entries (ImagesFront.cpp: inspect, the image datasets, train's
// help) and engine entries (ImagesEngine.cpp: train, heads, explain, render --image, the deletion
// experiment), and their own command, look.
#include "CliTasks.h"
#include "EngineTasks.h"

namespace attnlab::cli {

FrontTask imageClassifierFrontTask();
FrontTask captionerFrontTask();
EngineTask imageClassifierEngineTask();
EngineTask captionerEngineTask();

int runLook(const Args& args);
int runTrainImages(const Args& args);
int runTrainCaptioner(const Args& args);
// explain --model VIT IMAGE and explain --model CAPTIONER --word I IMAGE.
int explainImage(const ArgParser& args, const std::string& modelPath, bool captioner);
int runDeletionExperiment(const Args& args);
// render --image: a vision model's attention over one image.
int runRenderImage(const Args& args);

}  // namespace attnlab::cli
