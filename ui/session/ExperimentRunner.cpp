#include "session/ExperimentRunner.h"

#include "session/SettingNames.h"

#include <algorithm>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab {

// On the job's thread. `runner` is only dereferenced in what later() posts, on the runner's thread.
struct ExperimentRunner::Reports {
    const JobContext& job;
    ExperimentRunner* runner;
    quint64 run() const { return job.id(); }
    const std::atomic<bool>* stopFlag() const { return job.stopFlag(); }
    bool stopped() const { return job.stopRequested(); }
    template <typename F>
    void later(F f) const {
        job.postAlways(std::function<void()>(std::move(f)));  // receivers drop old runs by id
    }
    void reportProgress(double fraction, const QString& message) const {
        ExperimentRunner* r = runner;
        const quint64 id = run();
        later([r, id, fraction, message] { Q_EMIT r->progress(id, fraction, message); });
    }
};

ExperimentRunner::ExperimentRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<attnlab::NeedleResult>();  // for receivers that queue needleResult further
    qRegisterMetaType<attnlab::LongRangeRow>();
}

ExperimentRunner::~ExperimentRunner() { job_.stop(); }  // job_ then waits for the thread

void ExperimentRunner::stop() { job_.stop(); }

void ExperimentRunner::stopAndWait() {
    job_.stop();
    job_.wait();
}

quint64 ExperimentRunner::startBottleneck(const BottleneckOptions& options) {
    return launch([options](const Reports& out) { return runBottleneck(out, options); });
}

quint64 ExperimentRunner::startComplexity(const ComplexityOptions& options) {
    return launch([options](const Reports& out) { return runComplexity(out, options); });
}

quint64 ExperimentRunner::startNeedle(const NeedleOptions& options) {
    return launch([options](const Reports& out) { return runNeedle(out, options); });
}

quint64 ExperimentRunner::startLongRange(const LongRangeOptions& options) {
    return launch([options](const Reports& out) { return runLongRange(out, options); });
}

quint64 ExperimentRunner::startPositional(const PositionalOptions& options) {
    return launch([options](const Reports& out) { return runPositional(out, options); });
}

quint64 ExperimentRunner::launch(Body body) {
    stopAndWait();
    running_->store(true);
    std::shared_ptr<std::atomic<bool>> running = running_;
    ExperimentRunner* self = this;
    run_ = job_.start(
        [body = std::move(body), running, self](const JobContext& job) {
            const Reports out{job, self};
            const quint64 run = job.id();
            try {
                const bool stopped = body(out);
                running->store(false);
                out.later([self, run, stopped] { Q_EMIT self->finished(run, stopped); });
            } catch (const std::exception& e) {
                running->store(false);
                const QString message = SettingNames::messageOf(e);
                out.later([self, run, message] { Q_EMIT self->failed(run, message); });
            } catch (...) {
                running->store(false);
                const QString message = tr("the experiment failed with an unknown error");
                out.later([self, run, message] { Q_EMIT self->failed(run, message); });
            }
        },
        [] {});
    return run_;
}

bool ExperimentRunner::runBottleneck(const Reports& out, const BottleneckOptions& options) {
    if (options.attentions.empty()) throw std::invalid_argument(tr("choose at least one attention").toStdString());
    if (options.epochs < 1) throw std::invalid_argument(tr("epochs must be at least 1").toStdString());
    // Progress by work: an epoch costs about its sentence length (the pairs and the model are the same).
    double total = 0.0;
    for (int length : options.lengths)
        total += static_cast<double>(length) * options.epochs * static_cast<double>(options.attentions.size());
    double before = 0.0;  // work of the trainings already done
    for (int length : options.lengths) {
        for (const std::string& attention : options.attentions) {
            // One training per call: the same corpus and seed as the whole experiment would use.
            BottleneckOptions one = options;
            one.lengths = {length};
            one.attentions = {attention};
            const BottleneckResult r = runBottleneckExperiment(
                one,
                [&](int done, int, const std::string& message) {
                    out.reportProgress((before + static_cast<double>(done) * length) / total, QString::fromStdString(message));
                },
                out.stopFlag());
            if (out.stopped()) return true;  // the interrupted training is not a measurement
            const auto found = r.accuracy.find(attention);
            if (found != r.accuracy.end() && !found->second.empty())
                out.later([runner = out.runner, run = out.run(), name = QString::fromStdString(attention), length,
                           accuracy = found->second.front()] { Q_EMIT runner->bottleneckPoint(run, name, length, accuracy); });
            before += static_cast<double>(length) * options.epochs;
        }
    }
    return false;
}

bool ExperimentRunner::runComplexity(const Reports& out, const ComplexityOptions& options) {
    if (options.lengths.empty() || options.repeats < 1)
        throw std::invalid_argument(tr("the complexity lab needs at least one length and one repeat").toStdString());
    // Progress by work, not by count: full attention costs N^2, so the last length is most of the run.
    double totalWork = 0.0;
    for (int n : options.lengths) totalWork += static_cast<double>(n) * n * options.repeats;
    double work = 0.0;
    for (int n : options.lengths) {
        std::map<std::string, std::vector<double>> seconds;
        std::map<std::string, double> bytes;
        for (int r = 0; r < options.repeats; ++r) {
            if (out.stopped()) return true;
            ComplexityOptions one = options;
            one.lengths = {n};
            one.repeats = 1;
            const ComplexityResult result = runComplexityExperiment(one);
            for (const auto& [method, series] : result.methods) {
                if (!series.seconds.empty()) seconds[method].push_back(series.seconds.front());
                if (!series.bytes.empty()) bytes[method] = series.bytes.front();
            }
            work += static_cast<double>(n) * n;
            out.reportProgress(work / totalWork,
                     tr("N = %1: measurement %2 of %3").arg(n).arg(r + 1).arg(options.repeats));
        }
        for (const auto& [method, times] : seconds) {
            // The fastest repeat, not the median runComplexityExperiment reports: on a shared machine
            // other programs only ever add time, and a 0.3 ms measurement interrupted once by a
            // time slice elsewhere bent the GUI's slopes (linear 0.1 instead of 1.0 at a load of 5).
            out.later([runner = out.runner, run = out.run(), name = QString::fromStdString(method), n,
                       fastest = *std::min_element(times.begin(), times.end()), b = bytes[method]] {
                Q_EMIT runner->complexityPoint(run, name, n, fastest, b);
            });
        }
    }
    return false;
}

bool ExperimentRunner::runNeedle(const Reports& out, const NeedleOptions& options) {
    if (options.lengths.empty()) throw std::invalid_argument(tr("give at least one text length").toStdString());
    if (options.poolings.empty()) throw std::invalid_argument(tr("choose at least one pooling").toStdString());
    if (options.epochs < 1) throw std::invalid_argument(tr("epochs must be at least 1").toStdString());
    // Progress by work: a training costs about its text length (the texts, epochs and model are the
    // same). The engine trains length by length, every pooling at each length.
    const std::size_t poolings = options.poolings.size();
    std::vector<double> workAfter;  // the work done once unit i has finished
    double total = 0.0;
    for (int length : options.lengths)
        for (std::size_t p = 0; p < poolings; ++p) workAfter.push_back(total += std::max(1, length));
    const auto unitText = [&](std::size_t unit) {
        return tr("training %1 at %2 words (%3 of %4)")
            .arg(QString::fromStdString(options.poolings[unit % poolings]))
            .arg(options.lengths[unit / poolings])
            .arg(static_cast<qulonglong>(unit + 1))
            .arg(static_cast<qulonglong>(workAfter.size()));
    };
    QString first = unitText(0);
    if (!first.isEmpty()) first[0] = first[0].toUpper();
    out.reportProgress(0.0, first);
    const NeedleResult result = runNeedleExperiment(
        options,
        [&](int done, int, const std::string& message) {
            const std::size_t finished = static_cast<std::size_t>(std::max(done, 0));
            const double fraction = finished == 0 ? 0.0 : workAfter[std::min(finished, workAfter.size()) - 1] / total;
            QString text = QString::fromStdString(message);
            if (finished < workAfter.size()) text += QStringLiteral("; ") + unitText(finished);
            out.reportProgress(fraction, text);
        },
        out.stopFlag());
    // Stopped when a stop cut a training short (a stop after the last training changes nothing).
    bool complete = true;
    for (const std::string& pooling : options.poolings) {
        const auto found = result.accuracy.find(pooling);
        complete = complete && found != result.accuracy.end() && found->second.size() == options.lengths.size();
    }
    out.later([runner = out.runner, run = out.run(), result] { Q_EMIT runner->needleResult(run, result); });
    return out.stopped() && !complete;
}

bool ExperimentRunner::runLongRange(const Reports& out, const LongRangeOptions& options) {
    if (options.lengths.empty()) throw std::invalid_argument(tr("give at least one length").toStdString());
    if (options.patterns.empty()) throw std::invalid_argument(tr("choose at least one pattern").toStdString());
    out.reportProgress(0.0, tr("Training %1 at N = %2").arg(QString::fromStdString(options.patterns.front())).arg(options.lengths.front()));
    bool complete = false;
    runLongRangeExperiment(
        options,
        [&](int done, int total, const std::string& message) {
            complete = done == total;
            out.reportProgress(total > 0 ? static_cast<double>(done) / total : 0.0, QString::fromStdString(message));
        },
        out.stopFlag(),
        [&](const LongRangeRow& row) {
            out.later([runner = out.runner, run = out.run(), row] { Q_EMIT runner->longRangeRow(run, row); });
        });
    return out.stopped() && !complete;
}

bool ExperimentRunner::runPositional(const Reports& out, const PositionalOptions& options) {
    if (options.lengths.empty()) throw std::invalid_argument(tr("give at least one length").toStdString());
    if (options.models.empty()) throw std::invalid_argument(tr("choose at least one model").toStdString());
    if (options.epochs < 1) throw std::invalid_argument(tr("epochs must be at least 1").toStdString());
    // Progress by work: an epoch costs about its sequence length.
    double total = 0.0;
    for (int length : options.lengths)
        total += static_cast<double>(length) * options.epochs * static_cast<double>(options.models.size());
    double before = 0.0;
    for (int length : options.lengths) {
        for (const std::string& model : options.models) {
            PositionalOptions one = options;
            one.lengths = {length};
            one.models = {model};
            const PositionalResult r = runPositionalExperiment(
                one,
                [&](int done, int, const std::string& message) {
                    out.reportProgress((before + static_cast<double>(done) * length) / total, QString::fromStdString(message));
                },
                out.stopFlag());
            if (out.stopped()) return true;  // the interrupted training is not a measurement
            const auto tokens = r.tokenAccuracy.find(model);
            const auto exact = r.exactMatch.find(model);
            if (tokens != r.tokenAccuracy.end() && !tokens->second.empty() && exact != r.exactMatch.end())
                out.later([runner = out.runner, run = out.run(), name = QString::fromStdString(model), length,
                           t = tokens->second.front(), e = exact->second.front()] {
                    Q_EMIT runner->positionalPoint(run, name, length, t, e);
                });
            before += static_cast<double>(length) * options.epochs;
        }
    }
    return false;
}

}  // namespace attnlab
