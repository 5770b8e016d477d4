#include "session/ExperimentRunner.h"

#include "session/SettingNames.h"

#include <algorithm>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab {

ExperimentRunner::ExperimentRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<attnlab::NeedleResult>();  // needleResult is queued to the GUI thread
}

ExperimentRunner::~ExperimentRunner() { stopAndWait(); }

void ExperimentRunner::stop() { stop_.store(true); }

void ExperimentRunner::stopAndWait() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
}

quint64 ExperimentRunner::startBottleneck(const BottleneckOptions& options) {
    stopAndWait();
    stop_.store(false);
    running_.store(true);
    const quint64 run = ++run_;
    thread_ = std::thread([this, run, options] { runBottleneck(run, options); });
    return run;
}

quint64 ExperimentRunner::startComplexity(const ComplexityOptions& options) {
    stopAndWait();
    stop_.store(false);
    running_.store(true);
    const quint64 run = ++run_;
    thread_ = std::thread([this, run, options] { runComplexity(run, options); });
    return run;
}

quint64 ExperimentRunner::startNeedle(const NeedleOptions& options) {
    stopAndWait();
    stop_.store(false);
    running_.store(true);
    const quint64 run = ++run_;
    thread_ = std::thread([this, run, options] { runNeedle(run, options); });
    return run;
}

void ExperimentRunner::report(quint64 run, const std::function<bool()>& body) {
    try {
        const bool stopped = body();
        running_.store(false);
        Q_EMIT finished(run, stopped);
    } catch (const std::exception& e) {
        running_.store(false);
        Q_EMIT failed(run, SettingNames::messageOf(e));
    } catch (...) {
        running_.store(false);
        Q_EMIT failed(run, tr("the experiment failed with an unknown error"));
    }
}

void ExperimentRunner::runBottleneck(quint64 run, BottleneckOptions options) {
    report(run, [&] {
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
                        Q_EMIT progress(run, (before + static_cast<double>(done) * length) / total,
                                        QString::fromStdString(message));
                    },
                    &stop_);
                if (stop_.load()) return true;  // the interrupted training is not a measurement
                const auto found = r.accuracy.find(attention);
                if (found != r.accuracy.end() && !found->second.empty())
                    Q_EMIT bottleneckPoint(run, QString::fromStdString(attention), length, found->second.front());
                before += static_cast<double>(length) * options.epochs;
            }
        }
        return false;
    });
}

void ExperimentRunner::runComplexity(quint64 run, ComplexityOptions options) {
    report(run, [&] {
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
                if (stop_.load()) return true;
                ComplexityOptions one = options;
                one.lengths = {n};
                one.repeats = 1;
                const ComplexityResult result = runComplexityExperiment(one);
                for (const auto& [method, series] : result.methods) {
                    if (!series.seconds.empty()) seconds[method].push_back(series.seconds.front());
                    if (!series.bytes.empty()) bytes[method] = series.bytes.front();
                }
                work += static_cast<double>(n) * n;
                Q_EMIT progress(run, work / totalWork,
                                tr("N = %1: measurement %2 of %3").arg(n).arg(r + 1).arg(options.repeats));
            }
            for (const auto& [method, times] : seconds) {
                // The fastest repeat, not the median runComplexityExperiment reports: on a shared machine
                // other programs only ever add time, and a 0.3 ms measurement interrupted once by a
                // time slice elsewhere bent the GUI's slopes (linear 0.1 instead of 1.0 at a load of 5).
                Q_EMIT complexityPoint(run, QString::fromStdString(method), n,
                                       *std::min_element(times.begin(), times.end()), bytes[method]);
            }
        }
        return false;
    });
}

void ExperimentRunner::runNeedle(quint64 run, NeedleOptions options) {
    report(run, [&] {
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
        Q_EMIT progress(run, 0.0, first);
        const NeedleResult result = runNeedleExperiment(
            options,
            [&](int done, int, const std::string& message) {
                const std::size_t finished = static_cast<std::size_t>(std::max(done, 0));
                const double fraction = finished == 0 ? 0.0 : workAfter[std::min(finished, workAfter.size()) - 1] / total;
                QString text = QString::fromStdString(message);
                if (finished < workAfter.size()) text += QStringLiteral("; ") + unitText(finished);
                Q_EMIT progress(run, fraction, text);
            },
            &stop_);
        // Stopped when a stop cut a training short (a stop after the last training changes nothing).
        bool complete = true;
        for (const std::string& pooling : options.poolings) {
            const auto found = result.accuracy.find(pooling);
            complete = complete && found != result.accuracy.end() && found->second.size() == options.lengths.size();
        }
        Q_EMIT needleResult(run, result);
        return stop_.load() && !complete;
    });
}

}  // namespace attnlab
