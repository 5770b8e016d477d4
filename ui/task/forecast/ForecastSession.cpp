#include "task/forecast/ForecastSession.h"
#include "base/InputError.h"
#include "engine/forecast/ForecastHeadStudy.h"
#include <QCoreApplication>
#include <optional>

namespace attnlab {

namespace {

std::string noForecasterYet() {
    return QCoreApplication::translate("attnlab::ForecastSession", "no model yet").toStdString();
}

ForecastModelInfo describe(const Forecaster& model) {
    ForecastModelInfo info;
    info.config = model.config();
    info.period = model.period();
    info.parameters = model.parameterCount();
    return info;
}

}  // namespace

// Lives on the session's thread; every member function runs there.
class ForecastWorker : public SessionWorker<ForecastSession> {
public:
    using SessionWorker::SessionWorker;

    const Forecaster* model() const {
        if (trainer_) return &trainer_->model();
        return loaded_ ? &*loaded_ : nullptr;
    }

    void train(const ForecastRequest& request) {
        ForecastSession* s = session_;
        SessionWorker::train(
            [this, &request] {
                if (!request.series) throw std::runtime_error("no series");
                trainer_ = std::make_unique<ForecastTrainer>(*request.series, request.config, request.options);
                ForecastModelInfo info = describe(trainer_->model());
                info.trainingWindows = trainer_->trainingExamples();
                info.validationWindows = trainer_->validationExamples();
                info.epochsPlanned = request.options.epochs;
                info.source = QString::fromStdString(request.series->name);
                return info;
            },
            [this, s](const std::function<void()>& afterBatch) {
                const auto outcome = trainer_->run(
                    [this, s](const ForecastEpochMetrics& m) {
                        report_.epochDone(m.epoch, [s, m] { Q_EMIT s->epochFinished(m); });
                        probeNow();
                    },
                    report_.stopFlag(), afterBatch);
                return outcome == ForecastTrainer::Outcome::Stopped;
            });
    }

    void forecastAt(quint64 id, const std::shared_ptr<const Series>& series, long at, const std::vector<HeadId>& off) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noForecasterYet());
            if (!series) throw std::runtime_error("no series");
            Forecast f = forecastAblated(*model(), series->values, at, off);
            toSession([id, f, at](ForecastSession* t) { Q_EMIT t->forecasted(id, f, at); });
        });
    }

    void evaluate(quint64 id, const std::shared_ptr<const Series>& series, double tailFraction) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noForecasterYet());
            if (!series) throw std::runtime_error("no series");
            ForecastEvaluation e = evaluateForecaster(*model(), *series, tailFraction);
            toSession([id, e](ForecastSession* t) { Q_EMIT t->evaluated(id, e); });
        });
    }

    void measureHeads(quint64 id, const std::shared_ptr<const Series>& series, double tailFraction, int limit) {
        const QString data = series ? QCoreApplication::translate("attnlab::ForecastSession", "%1 (held-out tail)")
                                          .arg(QString::fromStdString(series->name))
                                    : QString();
        studyHeads(id, data, [&](const HeadStudyProgress& progress) {
            if (!model()) throw std::runtime_error(noForecasterYet());
            if (!series) throw std::runtime_error("no series");
            HeadStudyOptions options;
            options.limit = static_cast<std::size_t>(std::max(0, limit));
            return measureForecasterHeads(*model(), *series, tailFraction, options, progress);
        });
    }

    void setProbe(std::shared_ptr<const Series> series, long at, quint64 generation) {
        probe_ = std::move(series);
        probeAt_ = at;
        probeGeneration_ = generation;
    }

private:
    ForecastModelInfo openModel(const QString& path) override {
        Forecaster opened = Forecaster::load(path.toStdString());
        reset();
        loaded_.emplace(std::move(opened));
        return describe(*loaded_);
    }

    void saveModel(const std::string& path, const std::map<std::string, std::string>& extra) const override {
        if (!model()) throw std::runtime_error(noForecasterYet());
        model()->save(path, extra);
    }

    void dropModel() override {
        trainer_.reset();
        loaded_.reset();
    }

    void probeNow() override {
        if (!probe_ || !model()) return;
        ForecastSession* s = session_;
        const long at = probeAt_;
        try {
            Forecast f = model()->forecastAt(probe_->values, at);
            report_.probed(probeGeneration_, [s, f, at] { Q_EMIT s->probed(f, at); });
        } catch (const std::exception&) {
            // A position the model cannot forecast from (a series too short for its context): a
            // request for it says why.
        }
    }

    std::unique_ptr<ForecastTrainer> trainer_;
    std::optional<Forecaster> loaded_;
    std::shared_ptr<const Series> probe_;
    long probeAt_ = 0;
    quint64 probeGeneration_ = 0;
};

ForecastSession::ForecastSession(QObject* parent) : ForecastSessionBase(parent) {
    startWorker(QStringLiteral("attnlab-forecast"), new ForecastWorker(this, reporter()));
}

bool ForecastSession::train(const ForecastRequest& request) {
    if (!request.series || !beginTraining()) return false;
    post([request](ForecastWorker& w) { w.train(request); });
    return true;
}

quint64 ForecastSession::forecastAt(std::shared_ptr<const Series> series, long at, const std::vector<HeadId>& off) {
    const quint64 id = nextRequestId();
    post([id, series = std::move(series), at, off](ForecastWorker& w) { w.forecastAt(id, series, at, off); });
    return id;
}

quint64 ForecastSession::evaluate(std::shared_ptr<const Series> series, double tailFraction) {
    const quint64 id = nextRequestId();
    post([id, series = std::move(series), tailFraction](ForecastWorker& w) { w.evaluate(id, series, tailFraction); });
    return id;
}

quint64 ForecastSession::measureHeads(std::shared_ptr<const Series> series, double tailFraction, int limit) {
    const quint64 id = nextRequestId();
    post([id, series = std::move(series), tailFraction, limit](ForecastWorker& w) {
        w.measureHeads(id, series, tailFraction, limit);
    });
    return id;
}

void ForecastSession::setProbe(std::shared_ptr<const Series> series, long at) {
    const quint64 generation = newProbe();
    post([series = std::move(series), at, generation](ForecastWorker& w) { w.setProbe(series, at, generation); });
}

}  // namespace attnlab
