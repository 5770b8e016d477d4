// attnlab-bench: in-process latency figures for the performance table (printed, never
// asserted). Run through bench/run-benchmarks.sh, which adds the throughput figures.
#include "Stats.h"
#include <sys/resource.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QScrollArea>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>

#include "render/ImageOverlay.h"
#include "views/image/ImageCanvas.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/HeatmapWidget.h"
#include "widgets/LineViewWidget.h"
#include "views/translate/TranslationCurvesView.h"
#include "task/classify/ClassifierSession.h"
#include "task/forecast/ForecastSession.h"
#include "task/images/ImageSession.h"
#include "task/translate/TranslationSession.h"
#include "base/forecast/Series.h"
#include "base/text/ClassifyDatasets.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageDatasets.h"
#include "base/translation/Datasets.h"
#include "engine/Runtime.h"
#include "engine/translation/TranslationTrainer.h"
#include "engine/forecast/Forecaster.h"
#include "engine/vision/ImageModels.h"

using namespace attnlab;

using attnlab::bench::percentile;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

AttentionMap randomMap(int rows, int cols, std::mt19937& rng) {
    AttentionMap m{rows, cols, std::vector<float>(static_cast<std::size_t>(rows) * cols)};
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int r = 0; r < rows; ++r) {
        float sum = 0;
        for (int c = 0; c < cols; ++c) sum += m.weights[static_cast<std::size_t>(r) * cols + c] = u(rng);
        for (int c = 0; c < cols; ++c) m.weights[static_cast<std::size_t>(r) * cols + c] /= sum;
    }
    return m;
}

void row(const char* name, double value, const char* unit, const char* target) {
    std::printf("| %-46s | %10.2f %-5s | %-14s |\n", name, value, unit, target);
}

int translateRepeats = 15;

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Median wall time; *cpuMs gets the median CPU time of the thread (what the latency
// would be on an idle machine: the machine is shared).
double translateLatencyMs(const ModelConfig& config, double* cpuMs) {
    DatasetOptions data;
    data.size = 300;
    data.maxLen = 40;
    data.minLen = 30;
    ParallelCorpus corpus = generateDataset("toy-en-fr", data);
    TranslationTrainingOptions options;
    options.epochs = 1;
    TranslationTrainer trainer(corpus, config, options);
    const std::string sentence = corpus.pairs.front().source;  // 30+ tokens
    std::vector<double> ms, cpu;
    for (int i = 0; i < translateRepeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = threadCpuMs();
        Translation t = trainer.model().translate(sentence, {1, 30, true});
        cpu.push_back(threadCpuMs() - cpuStart);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    *cpuMs = median(cpu);
    return median(ms);
}

// Median wall time of `f` over `repeats` calls after one warm-up; *cpuMs as translateLatencyMs.
template <typename F>
double latencyMs(int repeats, F f, double* cpuMs) {
    f();
    std::vector<double> ms, cpu;
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = threadCpuMs();
        f();
        cpu.push_back(threadCpuMs() - cpuStart);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    *cpuMs = median(cpu);
    return median(ms);
}

// The vision models' answers for one image at their default sizes (untrained weights: the same
// arithmetic): a ViT's classification with every head's map and the rollout, a captioner's
// greedy caption, and the explanation lab on one image.
void visionRows() {
    Image glyph;
    glyph.height = glyph.width = 28;
    glyph.pixels.assign(28 * 28, 0);
    for (std::size_t i = 0; i < glyph.pixels.size(); i += 7) glyph.pixels[i] = 255;
    VitConfig vit;
    vit.classes = 10;
    const ImageClassifier classifier(vit, {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, 1);
    double cpu = 0;
    char label[96];
    const double lookMs = latencyMs(30, [&] { (void)classifier.classify(glyph); }, &cpu);
    std::snprintf(label, sizeof label, "look, ViT 28x28 with rollout (CPU %.1f ms)", cpu);
    row(label, lookMs, "ms", "<= 5 ms");
    const double explainMs = latencyMs(3, [&] { (void)classifier.explain(glyph); }, &cpu);
    std::snprintf(label, sizeof label, "explain, ViT 28x28, 5 maps + deletion (CPU %.0f ms)", cpu);
    row(label, explainMs, "ms", "");
    Image scene;
    scene.height = scene.width = 48;
    scene.channels = 3;
    scene.pixels.assign(48 * 48 * 3, 0);
    for (std::size_t i = 0; i < scene.pixels.size(); i += 5) scene.pixels[i] = 200;
    CaptionerConfig captioner;
    captioner.maxLength = 13;  // a three-object caption
    const ImageCaptioner model(captioner, Vocabulary::build({{"a", "red", "disk", "left", "of", "blue", "box"}}), 1);
    const double captionMs = latencyMs(30, [&] { (void)model.caption(scene); }, &cpu);
    std::snprintf(label, sizeof label, "caption, 48x48, up to 13 words (CPU %.1f ms)", cpu);
    row(label, captionMs, "ms", "<= 5 ms");
}

// A forecast at the forecaster's default size (96 points of history, 12 steps, untrained weights:
// the same arithmetic), with every layer's and head's attention the views draw.
void forecastRows() {
    const ForecastConfig config;
    const Forecaster model(config, Standardizer{}, 1);
    std::vector<double> history(static_cast<std::size_t>(config.context));
    for (std::size_t i = 0; i < history.size(); ++i) history[i] = std::sin(0.37 * static_cast<double>(i));
    double cpu = 0;
    char label[96];
    const double ms = latencyMs(30, [&] { (void)model.forecast(history); }, &cpu);
    std::snprintf(label, sizeof label, "forecast, %d steps from %d points, with attention (CPU %.1f ms)", config.horizon,
                  config.context, cpu);
    row(label, ms, "ms", "<= 5 ms");
}

template <typename Widget>
std::pair<double, double> paintMs(Widget& w) {
    QImage image(w.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> times;
    double first = 0;
    for (int i = 0; i < 12; ++i) {
        QElapsedTimer t;
        t.start();
        {
            QPainter p(&image);
            w.render(&p);
        }
        const double ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        if (i == 0) first = ms;
        else times.push_back(ms);
    }
    return {first, median(times)};
}

// Wall time of one epoch's update of the training curves (57 batches then the epoch's metrics,
// laid out and painted as the window would) once `epochs` epochs are already on the charts:
// {median, longest} over 20 epochs.
std::pair<double, double> chartEpochMs(QApplication& app, int epochs) {
    TranslationCurvesView charts;
    charts.resize(1300, 850);
    charts.setPlannedEpochs(10000);
    charts.show();
    constexpr int kBatches = 57;
    auto addEpoch = [&](int e) {
        for (int b = 1; b <= kBatches; ++b) {
            BatchReport r;
            r.epoch = e;
            r.batch = b;
            r.batchesPerEpoch = kBatches;
            r.loss = 3.0 / (e + b / double(kBatches)) + 0.05 * std::sin(b);
            charts.addBatch(r);
        }
        TranslationEpochMetrics m;
        m.epoch = e;
        m.trainLoss = 3.0 / e;
        m.validationLoss = 3.2 / e + 0.01;
        m.tokenAccuracy = 1.0 - 1.0 / (1 + e);
        m.exactMatch = 1.0 - 2.0 / (2 + e);
        m.bleu = 100.0 - 100.0 / (1 + e);
        charts.addEpoch(m);
    };
    for (int e = 1; e <= epochs; ++e) {
        addEpoch(e);
        if (e % 50 == 0) app.processEvents();
    }
    app.processEvents();
    std::vector<double> times;
    for (int e = epochs + 1; e <= epochs + 20; ++e) {
        QElapsedTimer t;
        t.start();
        addEpoch(e);
        app.processEvents();  // lays out and paints
        times.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    if (const char* png = getenv("ATTNLAB_BENCH_CHARTS_PNG")) {  // to look at what was measured
        QString error;
        if (!charts.exportImage(QStringLiteral("%1-%2.png").arg(QString::fromLocal8Bit(png)).arg(epochs), &error))
            std::fprintf(stderr, "%s\n", qPrintable(error));
    }
    return {median(times), *std::max_element(times.begin(), times.end())};
}

void chartRows(QApplication& app, const std::vector<int>& epochCounts) {
    for (int epochs : epochCounts) {
        auto [typical, longest] = chartEpochMs(app, epochs);
        char name[80];
        std::snprintf(name, sizeof name, "training curves, one epoch's update at epoch %d (longest %.1f)", epochs,
                      longest);
        row(name, typical, "ms", "");
    }
}

// The line view at 200 tokens x 8 heads (softmax rows over random logits, as spread as a young
// model's): the full repaint, a hovered token's repaint, and the event-loop gaps while the pointer
// sweeps over the tokens (a hover every 10 ms), a chip is toggled and the threshold moved (every
// 500 ms) for `seconds`.
void lineViewRows(QApplication& app, double seconds) {
    constexpr int kTokens = 200, kHeads = 8;
    std::mt19937 rng(5);
    std::normal_distribution<float> logit(0.0f, 2.0f);
    std::vector<AttentionMap> maps;
    for (int h = 0; h < kHeads; ++h) {
        AttentionMap m{kTokens, kTokens, std::vector<float>(static_cast<std::size_t>(kTokens) * kTokens)};
        for (int r = 0; r < kTokens; ++r) {
            double sum = 0;
            for (int c = 0; c < kTokens; ++c) sum += m.weights[static_cast<std::size_t>(r) * kTokens + c] = std::exp(logit(rng));
            for (int c = 0; c < kTokens; ++c) m.weights[static_cast<std::size_t>(r) * kTokens + c] /= static_cast<float>(sum);
        }
        maps.push_back(std::move(m));
    }
    QStringList labels;
    for (int i = 0; i < kTokens; ++i) labels << QStringLiteral("word%1").arg(i);
    QScrollArea scroll;
    auto* lines = new LineViewWidget;
    scroll.setWidgetResizable(true);
    scroll.setWidget(lines);
    scroll.resize(1300, 850);
    QElapsedTimer setClock;
    setClock.start();
    lines->setMaps(maps, labels, labels);
    const double setMs = static_cast<double>(setClock.nsecsElapsed()) / 1e6;
    scroll.show();
    app.processEvents();
    std::vector<double> full, hovered;
    for (int i = 0; i < 15; ++i) {
        lines->focusToken(LineViewRenderer::Side::None, -1);
        QElapsedTimer t;
        t.start();
        lines->repaint();
        full.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        lines->focusToken(LineViewRenderer::Side::Left, i * 13);
        t.restart();
        lines->repaint();
        hovered.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::vector<double> gaps;
    QElapsedTimer clock;
    clock.start();
    qint64 last = clock.nsecsElapsed();
    QTimer probe, hover, toggle;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        gaps.push_back(static_cast<double>(now - last) / 1e6);
        last = now;
    });
    int step = 0;
    QObject::connect(&hover, &QTimer::timeout, [&] {
        ++step;
        const int token = step % (kTokens + 20);  // now and then off the tokens: every line again
        lines->focusToken(token >= kTokens ? LineViewRenderer::Side::None
                                           : (step / 7) % 2 ? LineViewRenderer::Side::Right : LineViewRenderer::Side::Left,
                          token);
    });
    int toggles = 0;
    QObject::connect(&toggle, &QTimer::timeout, [&] {
        ++toggles;
        lines->setHeadVisible(toggles % kHeads, !lines->renderer().isHeadVisible(toggles % kHeads));
        lines->setThreshold(toggles % 3 == 0 ? 0.5 : 1.0);
    });
    probe.start(5);
    hover.start(10);
    toggle.start(500);
    QElapsedTimer limit;
    limit.start();
    while (limit.elapsed() < seconds * 1000) app.processEvents(QEventLoop::WaitForMoreEvents, 50);
    probe.stop();
    if (const char* png = getenv("ATTNLAB_BENCH_LINES_PNG")) {  // to look at what was measured
        QString error;
        if (!lines->exportImage(QString::fromLocal8Bit(png), &error)) std::fprintf(stderr, "%s\n", qPrintable(error));
    }
    char name[96];
    std::snprintf(name, sizeof name, "line view 200 tokens x 8 heads, full repaint (setMaps %.0f ms)", setMs);
    row(name, median(full), "ms", "");
    row("line view, a hovered token's repaint", median(hovered), "ms", "");
    row("line view, event-loop gap while hovering, longest", *std::max_element(gaps.begin(), gaps.end()), "ms",
        "<= 50 ms");
    row("line view, event-loop gap while hovering, 99th pct", percentile(gaps, 0.99), "ms", "");
}

}  // namespace

// The event-loop gaps (a 5 ms timer's intervals) while `start` trains one epoch on a session's
// worker thread: two rows, the longest and the 99th percentile. `finished` (bool) and `failed`
// (QString) are the session's signals for the end of the run.
template <typename Session, typename Finished, typename Failed, typename Start>
void gapRows(QApplication& app, const char* task, Session& session, Finished finished, Failed failed, Start start) {
    std::vector<double> gaps;
    QElapsedTimer clock;
    clock.start();
    qint64 last = clock.nsecsElapsed();
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        gaps.push_back(static_cast<double>(now - last) / 1e6);
        last = now;
    });
    bool done = false;
    QObject::connect(&session, finished, [&](bool) { done = true; });
    QObject::connect(&session, failed, [&](const QString& m) {
        std::fprintf(stderr, "%s: training failed: %s\n", task, qPrintable(m));
        done = true;
    });
    probe.start(5);
    start();
    QElapsedTimer limit;
    limit.start();
    while (!done && limit.elapsed() < 180000) app.processEvents(QEventLoop::WaitForMoreEvents, 50);
    probe.stop();
    session.shutdown(5000);
    if (gaps.empty()) return;
    char label[96];
    std::snprintf(label, sizeof label, "event-loop gap while training, %s, longest", task);
    row(label, *std::max_element(gaps.begin(), gaps.end()), "ms", "<= 50 ms");
    std::snprintf(label, sizeof label, "event-loop gap while training, %s, 99th pct", task);
    row(label, percentile(gaps, 0.99), "ms", "<= 20 ms");
}

int main(int argc, char* argv[]) {
    // `attnlab-bench translate [repeats]` prints only the translate rows (quick runs under
    // the build lock; many repeats for a profiler); `attnlab-bench charts [epochs]` only the training
    // curves rows; `attnlab-bench lines [seconds]` only the line view's.
    const bool translateOnly = argc > 1 && std::string(argv[1]) == "translate";
    const bool chartsOnly = argc > 1 && std::string(argv[1]) == "charts";
    const bool linesOnly = argc > 1 && std::string(argv[1]) == "lines";
    if (translateOnly && argc > 2) translateRepeats = std::max(1, std::atoi(argv[2]));
    setenv("QT_QPA_PLATFORM", "offscreen", 0);
    preferFastBlasKernels(argv);
    QApplication app(argc, argv);
    registerTrainingMetaTypes();
    setThreadCount(1);
    std::printf("| %-46s | %16s | %-14s |\n", "figure", "measured", "target");
    std::printf("|%s|%s|%s|\n", std::string(48, '-').c_str(), std::string(18, '-').c_str(),
                std::string(16, '-').c_str());

    if (linesOnly) {
        lineViewRows(app, argc > 2 ? std::max(1.0, std::atof(argv[2])) : 5.0);
        return 0;
    }
    if (chartsOnly) {
        chartRows(app, argc > 2 ? std::vector<int>{std::max(1, std::atoi(argv[2]))} : std::vector<int>{100, 1000, 3000});
        return 0;
    }
    ModelConfig gru;
    gru.attention = AttentionKind::Additive;
    gru.hidden = 128;
    double cpu = 0;
    const double gruMs = translateLatencyMs(gru, &cpu);
    char label[80];
    std::snprintf(label, sizeof label, "translate + capture, GRU, 30 tokens (CPU %.1f ms)", cpu);
    row(label, gruMs, "ms", "<= 5 ms");
    ModelConfig transformer;
    transformer.architecture = Architecture::Transformer;
    transformer.hidden = 128;
    transformer.heads = 4;
    transformer.layers = 2;
    transformer.feedForward = 512;
    const double transformerMs = translateLatencyMs(transformer, &cpu);
    std::snprintf(label, sizeof label, "translate + capture, Transformer 2+2 (CPU %.1f ms)", cpu);
    row(label, transformerMs, "ms", "<= 10 ms");
    visionRows();
    forecastRows();
    if (translateOnly) return 0;

    std::mt19937 rng(1);
    for (int n : {32, 256, 1024}) {
        HeatmapWidget w;
        w.resize(1100, 1000);
        std::vector<std::string> labels(static_cast<std::size_t>(n), "tok");
        w.setAttention(randomMap(n, n, rng), labels, labels);
        auto [first, repaint] = paintMs(w);
        char name[64];
        std::snprintf(name, sizeof name, "heatmap repaint %dx%d (first paint %.1f ms)", n, n, first);
        row(name, repaint, "ms", n == 1024 ? "<= 16 ms" : "");
    }
    {
        HeadGridWidget grid;
        grid.resize(1200, 1000);
        std::vector<std::vector<AttentionMap>> layers(8);
        for (auto& l : layers)
            for (int h = 0; h < 8; ++h) l.push_back(randomMap(64, 64, rng));
        QStringList labels;
        for (int i = 0; i < 64; ++i) labels << QStringLiteral("t%1").arg(i);
        grid.setLayers(layers, labels, labels);
        auto [first, repaint] = paintMs(grid);
        char name[64];
        std::snprintf(name, sizeof name, "head grid 8x8 heads, 64 tokens (first %.1f ms)", first);
        row(name, repaint, "ms", "<= 50 ms");
    }
    {
        // A ViT's rollout over a 28x28 image, upsampled (bilinear) and composited at 1024x1024, then
        // the Image view's canvas painting it: what a hover or a new probe costs at that size.
        Image glyph;
        glyph.height = glyph.width = 28;
        glyph.pixels.assign(28 * 28, 0);
        for (std::size_t i = 0; i < glyph.pixels.size(); i += 5) glyph.pixels[i] = 220;
        std::vector<float> weights(49);
        for (auto& w : weights) w = std::uniform_real_distribution<float>(0, 1)(rng);
        std::vector<double> composite;
        QImage picture;
        for (int i = 0; i < 12; ++i) {
            QElapsedTimer t;
            t.start();
            picture = overlayImage(glyph, weights, 7, 7, OverlayStyle(), 1024);
            composite.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        ImageCanvas canvas(1024);
        canvas.resize(1024, 1024);
        canvas.setPicture(picture, 7, 7);
        auto [first, repaint] = paintMs(canvas);
        char name[96];
        std::snprintf(name, sizeof name, "image overlay 1024x1024: composite %.1f ms + repaint (first %.1f ms)",
                      median(composite), first);
        row(name, median(composite) + repaint, "ms", "<= 16 ms");
    }

    chartRows(app, {100, 1000, 3000});
    lineViewRows(app, 5.0);

    // Event-loop gaps while each task's worker trains (the GUI's sessions, a probe answered every
    // few batches as the views ask): translation toy-en-fr (GRU + additive, hidden 128), then every
    // other task at its default size on its built-in data.
    {
        TranslationSession controller;
        DatasetOptions data;
        data.size = 2000;
        TrainingRequest request;
        request.corpus = std::make_shared<const ParallelCorpus>(generateDataset("toy-en-fr", data));
        request.config = gru;
        request.options.epochs = 1;
        controller.setProbe(QStringLiteral("the cat sees the red house"), 5);
        gapRows(app, "translation", controller, &TranslationSession::finished, &TranslationSession::failed, [&] { controller.start(request); });
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    row("peak resident memory (this process, incl. training translation)", static_cast<double>(usage.ru_maxrss) / 1024.0,
        "MB", "<= 500 MB");
    {
        ImageSession session;
        ImageTrainRequest vit;
        vit.task = QString::fromLatin1(tasks::kImageClassify);
        vit.images = std::make_shared<const ImageDataset>(makeGlyphs(3000, 1));
        vit.vit.classes = 10;
        vit.options.epochs = 1;
        session.setProbe(vit.images->images.front());
        gapRows(app, "ViT", session, &ImageSession::trainingFinished, &ImageSession::trainingFailed, [&] { session.train(vit); });
    }
    {
        ImageSession session;
        ImageTrainRequest captioner;
        captioner.task = QString::fromLatin1(tasks::kCaption);
        captioner.captions = std::make_shared<const CaptionDataset>(makeScenes(2000, 1));
        captioner.options.epochs = 1;
        session.setProbe(captioner.captions->images.front());
        gapRows(app, "captioner", session, &ImageSession::trainingFinished, &ImageSession::trainingFailed, [&] { session.train(captioner); });
    }
    {
        ClassifierSession session;
        ClassifierRequest classify;
        classify.corpus = std::make_shared<const ClassificationCorpus>(makeClassificationDataset("sentiment", 4000, 1));
        classify.options.epochs = 1;
        session.setProbe(QStringLiteral("the plot was dull but the ending was fun"));
        gapRows(app, "classifier", session, &ClassifierSession::trainingFinished, &ClassifierSession::trainingFailed, [&] { session.train(classify); });
    }
    {
        ForecastSession session;
        ForecastRequest forecast;
        forecast.series = std::make_shared<const Series>(generateSeries(GeneratedSeriesOptions{}));
        forecast.options.epochs = 2;
        session.setProbe(forecast.series, static_cast<long>(forecast.series->values.size()) - forecast.config.horizon);
        gapRows(app, "forecaster", session, &ForecastSession::trainingFinished, &ForecastSession::trainingFailed, [&] { session.train(forecast); });
    }
    getrusage(RUSAGE_SELF, &usage);
    row("peak resident memory, after every task's run in turn", static_cast<double>(usage.ru_maxrss) / 1024.0, "MB",
        "");
    return 0;
}
