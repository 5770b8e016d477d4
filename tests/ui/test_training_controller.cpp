#include <QCoreApplication>
#include "task/translate/TranslationSession.h"

#include "session/BackgroundJob.h"

#include "base/translation/Datasets.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <atomic>
#include <thread>
#include <vector>

#include "TempDir.h"
#include "TinyModels.h"
#include "ui/UiTestSupport.h"

using namespace attnlab;
using State = TranslationSession::State;

namespace {

// A model small enough that a batch takes a few milliseconds.
TrainingRequest tinyRequest(int epochs, int batch = 16) {
    DatasetOptions data;
    data.size = 64;
    data.maxLen = 5;
    TrainingRequest request;
    request.corpus = std::make_shared<const ParallelCorpus>(generateDataset("copy", data));
    request.config = test::tinyGru(AttentionKind::Dot);
    request.config.dropout = 0.0f;
    request.config.maxLength = 16;
    request.options.epochs = epochs;
    request.options.batchSize = batch;
    request.options.seed = 7;
    return request;
}

using test::waitUntil;

// A round trip through the worker's queue. The worker runs what the controller queues in order, one
// call at a time, and its signals reach the controller in the order it sent them; so once the answer
// to a request queued now has arrived, every call queued before it (pause, step, stop) has run and
// every batch the worker trained before reaching the request has been counted. Past a pause, step or
// stop nothing else is queued to train, so a batch count read after this is final.
void roundTrip(TranslationSession& controller) {
    QSignalSpy answered(&controller, &TranslationSession::translated);
    QSignalSpy refused(&controller, &TranslationSession::translationFailed);
    const quint64 id = controller.translate(QStringLiteral("a b c"));
    auto answeredWith = [id](const QSignalSpy& spy) {
        for (const auto& args : spy)
            if (args.at(0).value<quint64>() == id) return true;
        return false;
    };
    REQUIRE(waitUntil([&] { return answeredWith(answered) || answeredWith(refused); }));
}

TEST_CASE("a run trains every batch of every epoch and finishes with a model", "[ui][controller]") {
    TranslationSession controller;
    QSignalSpy batches(&controller, &TranslationSession::batchTrained);
    QSignalSpy epochs(&controller, &TranslationSession::epochFinished);
    QSignalSpy finished(&controller, &TranslationSession::finished);
    QSignalSpy prepared(&controller, &TranslationSession::prepared);
    CHECK(controller.state() == State::Idle);
    CHECK_FALSE(controller.hasModel());

    controller.start(tinyRequest(2));
    CHECK(controller.state() == State::Running);
    REQUIRE(waitUntil([&] { return finished.count() == 1; }));

    CHECK(controller.state() == State::Finished);
    CHECK(controller.hasModel());
    CHECK(controller.isModified());
    CHECK_FALSE(finished.at(0).at(0).toBool());  // not stopped: all epochs done
    REQUIRE(prepared.count() == 1);
    const auto summary = prepared.at(0).at(0).value<ModelSummary>();
    CHECK(summary.batchesPerEpoch > 0);
    CHECK(summary.parameters > 0);
    CHECK(batches.count() == 2 * summary.batchesPerEpoch);
    REQUIRE(epochs.count() == 2);
    CHECK(epochs.at(1).at(0).value<TranslationEpochMetrics>().epoch == 2);
    CHECK_THAT(controller.progress(), Catch::Matchers::WithinAbs(1.0, 1e-9));
}

TEST_CASE("pause, step, resume and stop take effect at batch boundaries", "[ui][controller]") {
    TranslationSession controller;
    QSignalSpy batches(&controller, &TranslationSession::batchTrained);
    QSignalSpy finished(&controller, &TranslationSession::finished);
    QSignalSpy states(&controller, &TranslationSession::stateChanged);

    controller.start(tinyRequest(1000, 8));
    REQUIRE(waitUntil([&] { return batches.count() >= 2; }));

    controller.pause();
    CHECK(controller.state() == State::Paused);
    roundTrip(controller);  // the worker has paused: the batches in flight when pause was queued are in
    const int afterPause = batches.count();
    CHECK(controller.batchesTrained() == afterPause);
    roundTrip(controller);  // the worker had its turn to train again and did not
    CHECK(batches.count() == afterPause);
    CHECK(controller.state() == State::Paused);

    controller.step();
    REQUIRE(waitUntil([&] { return batches.count() >= afterPause + 1; }));
    roundTrip(controller);  // the step has run to its end: one batch, then paused
    CHECK(batches.count() == afterPause + 1);
    CHECK(controller.state() == State::Paused);

    controller.resume();
    CHECK(controller.state() == State::Running);
    REQUIRE(waitUntil([&] { return batches.count() >= afterPause + 4; }));

    controller.stop();
    CHECK(controller.state() == State::Finished);
    // The worker sends finished when it runs stop: every batch it trained before is counted by then.
    REQUIRE(waitUntil([&] { return finished.count() == 1; }));
    CHECK(finished.at(0).at(0).toBool());  // stopped early
    const int afterStop = batches.count();
    roundTrip(controller);  // the worker had its turn to train again and did not
    CHECK(batches.count() == afterStop);
    CHECK(controller.hasModel());

    QList<State> seen;
    for (const auto& args : states) seen << args.at(0).value<State>();
    CHECK(seen == QList<State>{State::Running, State::Paused, State::Running, State::Finished});
}

TEST_CASE("step from a paused start trains exactly one batch", "[ui][controller]") {
    TranslationSession controller;
    QSignalSpy batches(&controller, &TranslationSession::batchTrained);
    QSignalSpy prepared(&controller, &TranslationSession::prepared);
    controller.start(tinyRequest(3), true);
    CHECK(controller.state() == State::Paused);
    controller.step();
    REQUIRE(waitUntil([&] { return batches.count() >= 1; }));
    roundTrip(controller);  // the step has run to its end and nothing else was queued to train
    CHECK(batches.count() == 1);
    CHECK(controller.state() == State::Paused);
    CHECK(prepared.count() == 1);
    const auto report = batches.at(0).at(0).value<BatchReport>();
    CHECK(report.epoch == 1);
    CHECK(report.batch == 1);
}

TEST_CASE("translation requests are answered while training runs", "[ui][controller]") {
    TranslationSession controller;
    QSignalSpy batches(&controller, &TranslationSession::batchTrained);
    QSignalSpy translated(&controller, &TranslationSession::translated);
    QSignalSpy failedTranslation(&controller, &TranslationSession::translationFailed);
    QSignalSpy probes(&controller, &TranslationSession::probeUpdated);
    const TrainingRequest request = tinyRequest(1000, 8);
    controller.setProbe(QString::fromStdString(request.corpus->pairs[0].source), 2);
    controller.start(request);
    REQUIRE(waitUntil([&] { return batches.count() >= 1; }));

    const quint64 id = controller.translate(QString::fromStdString(request.corpus->pairs[1].source));
    REQUIRE(waitUntil([&] { return translated.count() == 1; }));
    CHECK(controller.state() == State::Running);  // answered between batches, training goes on
    CHECK(translated.at(0).at(0).value<quint64>() == id);
    const auto translation = translated.at(0).at(1).value<Translation>();
    CHECK(translation.sourceTokens.size() == 6);  // five letters and </s>
    CHECK(translation.attention.count(MapKind::Cross) == 1);

    const quint64 bad = controller.translate(QStringLiteral("   "));
    REQUIRE(waitUntil([&] { return failedTranslation.count() == 1; }));
    CHECK(failedTranslation.at(0).at(0).value<quint64>() == bad);
    CHECK(failedTranslation.at(0).at(1).toString().contains(QStringLiteral("empty")));

    // The probe is re-translated every 2 batches, so it keeps arriving while training runs. Early
    // on the model may end its output at once: an empty translation carries no maps (the engine's
    // contract, which the views rely on), so wait for one with words as training goes on.
    const auto probeAt = [&](int i) { return probes.at(i).at(0).value<ProbeResult>(); };
    REQUIRE(waitUntil([&] { return probes.count() >= 3 && !probeAt(probes.count() - 1).translation.outputTokens.empty(); }));
    for (int i = 0; i < probes.count(); ++i) {
        const auto probe = probeAt(i);
        CHECK(probe.batches % 2 == 0);
        CHECK(probe.translation.attention.count(MapKind::Cross) == (probe.translation.outputTokens.empty() ? 0u : 1u));
    }
    const auto probe = probeAt(probes.count() - 1);
    REQUIRE(probe.translation.attention.count(MapKind::Cross) == 1);
    CHECK(probe.translation.attention.at(MapKind::Cross).front().front().rows ==
          static_cast<int>(probe.translation.outputTokens.size()));
    controller.stop();
}

TEST_CASE("a configuration the engine rejects fails without leaving a model", "[ui][controller]") {
    TranslationSession controller;
    QSignalSpy failed(&controller, &TranslationSession::failed);
    TrainingRequest request = tinyRequest(1);
    request.options.learningRate = -1.0;
    controller.start(request);
    REQUIRE(waitUntil([&] { return failed.count() == 1; }));
    // The GUI names the control, not the CLI's flag.
    CHECK(failed.at(0).at(0).toString() == QStringLiteral("Learning rate must be above 0 and at most 10; it is -1"));
    CHECK(controller.state() == State::Idle);
    CHECK_FALSE(controller.hasModel());
}

TEST_CASE("a diverged run keeps its last good weights, which can be saved and loaded", "[ui][controller]") {
    test::TempDir dir;
    TranslationSession controller;
    QSignalSpy diverged(&controller, &TranslationSession::diverged);
    QSignalSpy saved(&controller, &TranslationSession::modelSaved);
    QSignalSpy loaded(&controller, &TranslationSession::modelLoaded);
    QSignalSpy translated(&controller, &TranslationSession::translated);
    TrainingRequest request = tinyRequest(5, 8);
    request.options.injectNonFiniteAtBatch = 3;
    controller.start(request);
    REQUIRE(waitUntil([&] { return diverged.count() == 1; }));
    CHECK(diverged.at(0).at(0).toInt() == 1);  // epoch
    CHECK(diverged.at(0).at(1).toInt() == 3);  // batch
    CHECK(controller.state() == State::Finished);
    CHECK(controller.hasModel());

    const QString path = dir.filePath(QStringLiteral("model.safetensors"));
    controller.saveModel(path);
    REQUIRE(waitUntil([&] { return saved.count() == 1; }));
    CHECK_FALSE(controller.isModified());

    controller.reset();
    CHECK_FALSE(controller.hasModel());
    controller.loadModel(path);
    REQUIRE(waitUntil([&] { return loaded.count() == 1; }));
    CHECK(controller.hasModel());
    CHECK(loaded.at(0).at(0).value<ModelSummary>().loadedFromFile);
    controller.translate(QString::fromStdString(request.corpus->pairs[0].source));
    REQUIRE(waitUntil([&] { return translated.count() == 1; }));
}

TEST_CASE("a bad model file is reported and the current model stays", "[ui][controller]") {
    test::TempDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.safetensors"));
    {
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("not a model");
    }
    TranslationSession controller;
    QSignalSpy finished(&controller, &TranslationSession::finished);
    QSignalSpy loadFailed(&controller, &TranslationSession::loadFailed);
    QSignalSpy translated(&controller, &TranslationSession::translated);
    const TrainingRequest request = tinyRequest(1);
    controller.start(request);
    REQUIRE(waitUntil([&] { return finished.count() == 1; }));

    controller.loadModel(path);
    REQUIRE(waitUntil([&] { return loadFailed.count() == 1; }));
    CHECK(loadFailed.at(0).at(0).toString().contains(QStringLiteral("bad.safetensors")));
    CHECK(controller.hasModel());
    CHECK(controller.state() == State::Finished);
    controller.translate(QString::fromStdString(request.corpus->pairs[0].source));
    REQUIRE(waitUntil([&] { return translated.count() == 1; }));
}

TEST_CASE("shutdown during training ends the worker within the timeout", "[ui][controller]") {
    auto controller = std::make_unique<TranslationSession>();
    QSignalSpy batches(controller.get(), &TranslationSession::batchTrained);
    controller->start(tinyRequest(1000, 8));
    REQUIRE(waitUntil([&] { return batches.count() >= 1; }));
    QElapsedTimer timer;
    timer.start();
    CHECK(controller->shutdown(5000));
    CHECK(timer.elapsed() < 5000);
    controller.reset();  // destroying it after shutdown is fine too
    CHECK_FALSE(TranslationSession::hasAbandonedThreads());
}

TEST_CASE("the controller is a ModelSession: its run state and the common signals follow the run",
          "[ui][controller]") {
    TranslationSession controller;
    ModelSession& session = controller;
    QSignalSpy finished(&session, &ModelSession::trainingFinished);
    QSignalSpy states(&session, &ModelSession::stateChanged);
    CHECK(session.runState() == ModelSession::RunState::Idle);
    CHECK_FALSE(session.isBusy());

    controller.start(tinyRequest(1));
    CHECK(session.runState() == ModelSession::RunState::Training);
    CHECK(session.isTraining());
    REQUIRE(waitUntil([&] { return finished.count() == 1; }));
    CHECK_FALSE(finished.at(0).at(0).toBool());
    CHECK(session.runState() == ModelSession::RunState::Idle);  // Finished: the model stays
    CHECK(session.hasModel());
    CHECK(session.isModified());
    CHECK(session.completedEpochs() == 1);
    CHECK(states.count() >= 2);

    QSignalSpy discarded(&session, &ModelSession::modelDiscarded);
    session.reset();
    CHECK(discarded.count() == 1);
    CHECK_FALSE(session.hasModel());
    CHECK(session.completedEpochs() == 0);
}

// Everything posted to this thread so far (a job's result, its progress) is delivered now: once the
// job's threads have ended, a result that does not arrive here was dropped, not late.
void deliverPosted() {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

TEST_CASE("a background job hands its result to the receiver's thread; the newest job wins",
          "[ui][controller][jobs]") {
    QObject receiver;
    BackgroundJob job(&receiver, QStringLiteral("attnlab-test-job"));
    std::vector<int> results;
    std::vector<QString> progress;
    const auto gui = QThread::currentThread();
    bool onGui = true;

    // The first job holds until the second is queued, so that the two overlap (a gate, not a sleep).
    auto release = std::make_shared<std::atomic<bool>>(false);
    const quint64 first = job.start(
        [release](const JobContext& context) {
            while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            context.post([] {});
            return 1;
        },
        [&](int r) { results.push_back(r); });
    const quint64 second = job.start(
        [](const JobContext& context) {
            context.post([] {});
            return 2;
        },
        [&](int r) {
            onGui = onGui && QThread::currentThread() == gui;
            results.push_back(r);
        });
    release->store(true);
    CHECK(second > first);
    CHECK(job.isCurrent(second));
    CHECK(job.isPending());
    REQUIRE(waitUntil([&] { return !job.isPending() && !job.isBusy(); }));
    deliverPosted();  // the first job's result, had it been posted, arrives now
    CHECK(results == std::vector<int>{2});
    CHECK(onGui);

    // Progress arrives before the result; a failure arrives as a message.
    QString failure;
    job.start(
        [&progress](const JobContext& context) -> int {
            context.post([&progress] { progress.push_back(QStringLiteral("half")); });
            throw std::runtime_error("bad input");
        },
        [&](int r) { results.push_back(r); },
        [&](const QString& message) { failure = message + QString::number(progress.size()); });
    REQUIRE(waitUntil([&] { return !job.isPending(); }));
    CHECK(failure == QStringLiteral("bad input1"));

    // cancel(): the running job's result is dropped; a void job calls done() with no argument.
    bool voidDone = false;
    auto held = std::make_shared<std::atomic<bool>>(false);
    job.start([held] { while (!held->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1)); },
              [&] { voidDone = true; });
    job.cancel();  // while it runs: it cannot end before `held` is set
    held->store(true);
    CHECK_FALSE(job.isPending());
    REQUIRE(job.wait(5000));
    deliverPosted();
    CHECK_FALSE(voidDone);
    job.start([] {}, [&] { voidDone = true; });
    REQUIRE(waitUntil([&] { return voidDone; }));
}

TEST_CASE("a background job's result is dropped once its receiver is gone; shutdown stops and waits",
          "[ui][controller][jobs]") {
    auto delivered = std::make_shared<bool>(false);
    {
        auto receiver = std::make_unique<QObject>();
        BackgroundJob job(receiver.get(), QStringLiteral("attnlab-test-job"));
        auto gate = std::make_shared<std::atomic<bool>>(false);
        job.start(
            [gate] {
                while (!gate->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                return 1;
            },
            [delivered](int) { *delivered = true; });
        receiver.reset();  // before the job ends: it waits for the gate
        gate->store(true);
        REQUIRE(job.wait(5000));
        deliverPosted();
    }
    CHECK_FALSE(*delivered);

    QObject receiver;
    BackgroundJob job(&receiver, QStringLiteral("attnlab-test-job"));
    job.start(
        [](const JobContext& context) {
            while (!context.stopRequested()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 0;
        },
        [delivered](int) { *delivered = true; });
    QElapsedTimer timer;
    timer.start();
    CHECK(job.shutdown(5000));  // raises the stop flag, then waits
    CHECK(timer.elapsed() < 5000);
    CHECK(job.isShutDown());
    CHECK(job.start([] { return 1; }, [delivered](int) { *delivered = true; }) == 0);
    deliverPosted();
    CHECK_FALSE(*delivered);
    CHECK_FALSE(TranslationSession::hasAbandonedThreads());
}

}  // namespace
