#pragma once
// Runs the teaching lab's experiments (engine/Experiments.h) on one background thread, one at a time,
// and reports back by signals emitted from that thread (queued to receivers on the GUI thread). Every
// signal carries the run id that start*() returned, so a receiver can drop the reports of a run it
// replaced.
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
#include "engine/ClassifierExperiments.h"
#include "engine/Experiments.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <thread>

namespace attnlab {

class ExperimentRunner : public QObject {
    Q_OBJECT

public:
    explicit ExperimentRunner(QObject* parent = nullptr);
    ~ExperimentRunner() override;  // stops and joins the thread

    bool isRunning() const { return running_.load(); }
    quint64 currentRun() const { return run_; }

    // Both stop and join a running experiment first (bounded by one unit, see above).
    quint64 startBottleneck(const BottleneckOptions& options);
    quint64 startComplexity(const ComplexityOptions& options);
    quint64 startNeedle(const NeedleOptions& options);
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
    void finished(quint64 run, bool stopped);
    void failed(quint64 run, QString message);

private:
    // Runs body on the runner thread and reports its end: finished(run, stopped) with what body
    // returns, or failed(run, message) for an exception.
    void report(quint64 run, const std::function<bool()>& body);
    void runBottleneck(quint64 run, BottleneckOptions options);
    void runComplexity(quint64 run, ComplexityOptions options);
    void runNeedle(quint64 run, NeedleOptions options);

    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> running_{false};
    quint64 run_ = 0;
};

}  // namespace attnlab

Q_DECLARE_METATYPE(attnlab::NeedleResult)
