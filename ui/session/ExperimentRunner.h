#pragma once
// Runs the teaching lab's experiments (engine/Experiments.h) on a background thread (a BackgroundJob),
// one at a time, and reports back by signals emitted on this object's (the GUI) thread: the thread
// posts each report here. Every signal carries the run id that start*() returned, so a receiver can
// drop the reports of a run it replaced.
//
// The experiment is split into its smallest measured units, one (length, attention) training for the
// bottleneck and one repeat at one length for the complexity lab, so that a point reaches the chart as
// soon as it is measured and a stop takes effect within one unit: a training stops after its current
// batch (the unfinished training gives no point), a timing after its current measurement (about a
// second for full attention at N = 8192 here).
//
// The classification needle experiment (engine/ClassifierExperiments.h) runs as one call: its
// progress arrives after each (length, pooling) training, a stop takes effect inside the current
// training (after its batch), and needleResult carries the accuracies measured so far, finished or
// stopped, just before finished().
//
// The long-range experiment (engine/LongRangeExperiment.h) runs as one call too: each (pattern,
// length) row arrives as longRangeRow as soon as it is measured; a stop takes effect after the
// current training step. The positional-encoding experiment (engine/translation/
// PositionalExperiment.h) is split like the bottleneck, one (length, model) training per unit,
// each reported as positionalPoint.
#include "engine/LongRangeExperiment.h"
#include "engine/text/ClassifierExperiments.h"
#include "engine/translation/Experiments.h"
#include "engine/translation/PositionalExperiment.h"
#include "session/BackgroundJob.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace attnlab {

class ExperimentRunner : public QObject {
    Q_OBJECT

public:
    explicit ExperimentRunner(QObject* parent = nullptr);
    ~ExperimentRunner() override;  // stops the thread and waits for it (bounded: see BackgroundJob)

    bool isRunning() const { return running_->load(); }
    quint64 currentRun() const { return run_; }

    // Both stop and join a running experiment first (bounded by one unit, see above).
    quint64 startBottleneck(const BottleneckOptions& options);
    quint64 startComplexity(const ComplexityOptions& options);
    quint64 startNeedle(const NeedleOptions& options);
    quint64 startLongRange(const LongRangeOptions& options);
    quint64 startPositional(const PositionalOptions& options);
    void stop();          // asks the running experiment to stop; returns at once
    void stopAndWait();   // stops and joins

Q_SIGNALS:
    void progress(quint64 run, double fraction, QString message);
    void bottleneckPoint(quint64 run, QString attention, int length, double accuracy);
    // One length measured: the fastest of the repeats and the bytes of intermediates.
    void complexityPoint(quint64 run, QString method, int length, double seconds, double bytes);
    // The needle experiment's accuracies when it ends or is stopped (the trainings finished so far),
    // emitted before finished(run, stopped).
    void needleResult(quint64 run, NeedleResult result);
    void longRangeRow(quint64 run, LongRangeRow row);
    // One (length, model) training of the positional experiment: held-out token accuracy and exact match.
    void positionalPoint(quint64 run, QString model, int length, double tokenAccuracy, double exactMatch);
    void finished(quint64 run, bool stopped);
    void failed(quint64 run, QString message);

private:
    // What an experiment's body uses on the job's thread: the stop flag and a way to emit here.
    struct Reports;
    using Body = std::function<bool(const Reports&)>;  // true if stopped
    // Stops and joins a running experiment, then runs body on the job's thread and reports its end:
    // finished(run, stopped) with what body returns, or failed(run, message) for an exception.
    quint64 launch(Body body);
    static bool runBottleneck(const Reports& out, const BottleneckOptions& options);
    static bool runComplexity(const Reports& out, const ComplexityOptions& options);
    static bool runNeedle(const Reports& out, const NeedleOptions& options);
    static bool runLongRange(const Reports& out, const LongRangeOptions& options);
    static bool runPositional(const Reports& out, const PositionalOptions& options);

    // Set on the GUI thread when a run starts, cleared by its thread as it ends (before finished).
    std::shared_ptr<std::atomic<bool>> running_ = std::make_shared<std::atomic<bool>>(false);
    quint64 run_ = 0;
    BackgroundJob job_{this, QStringLiteral("attnlab-experiment"), 10000};
};

}  // namespace attnlab

Q_DECLARE_METATYPE(attnlab::NeedleResult)
Q_DECLARE_METATYPE(attnlab::LongRangeRow)
