#include "task/lm/LmSession.h"
#include "base/lm/LmCircuits.h"
#include "base/lm/LmHubCache.h"
#include "engine/lm/LmHeadStudy.h"
#include <QCoreApplication>
#include <optional>

namespace attnlab {

namespace {

std::string noLanguageModelYet() {
    return QCoreApplication::translate("attnlab::LmSession", "no model yet").toStdString();
}

LmModelInfo describeLm(const LmModel& model) {
    LmModelInfo info;
    info.config = model.config();
    info.parameters = model.parameterCount();
    info.tokens = QString::fromStdString(toString(model.tokenizer().kind()));
    return info;
}

}  // namespace

// Lives on the session's thread; every member function runs there.
class LmWorker : public SessionWorker<LmSession> {
public:
    using SessionWorker::SessionWorker;

    const LmModel* model() const {
        if (trainer_) return &trainer_->model();
        return loaded_ ? &*loaded_ : nullptr;
    }

    void train(const LmRequest& request) {
        LmSession* s = session_;
        SessionWorker::train(
            [this, &request] {
                if (!request.corpus) throw std::runtime_error("no text");
                trainer_ = std::make_unique<LmTrainer>(*request.corpus, request.config, request.options);
                LmModelInfo info = describeLm(trainer_->model());
                info.trainingDocuments = trainer_->trainingExamples();
                info.validationDocuments = trainer_->validationExamples();
                info.stepsPlanned = request.options.steps;
                info.source = QString::fromStdString(request.corpus->name);
                return info;
            },
            [this, s](const std::function<void()>& afterBatch) {
                int reports = 0;
                const auto outcome = trainer_->run(
                    [this, s, &reports](const LmStepMetrics& m) {
                        report_.epochDone(++reports, [s, m] { Q_EMIT s->reported(m); });
                        probeNow();
                    },
                    report_.stopFlag(), afterBatch);
                return outcome == LmTrainer::Outcome::Stopped;
            });
    }

    void attend(quint64 id, const std::string& text) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noLanguageModelYet());
            LmReading r = model()->attend(text);
            toSession([id, r = std::move(r)](LmSession* t) { Q_EMIT t->attended(id, r); });
        });
    }

    void generate(quint64 id, const std::string& prompt, const LmGenerateOptions& options) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noLanguageModelYet());
            LmGenerated g;
            g.generation = model()->generate(prompt, options);
            std::vector<int> ids = g.generation.prompt;
            ids.insert(ids.end(), g.generation.generated.begin(), g.generation.generated.end());
            g.reading = model()->attendIds(std::move(ids));
            toSession([id, g = std::move(g)](LmSession* t) { Q_EMIT t->generated(id, g); });
        });
    }

    void readRepeat(quint64 id, std::uint64_t seed) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noLanguageModelYet());
            const LmConfig& c = model()->config();
            LmReading r = model()->attendIds(lmRepeatedSequence(model()->tokenizer(), std::max(1, (c.context - 1) / 2), seed));
            toSession([id, r = std::move(r)](LmSession* t) { Q_EMIT t->repeatRead(id, r); });
        });
    }

    void detect(quint64 id) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noLanguageModelYet());
            // Fewer probes for a long context (GPT-2's 1,024: each probe is 1,023 tokens).
            LmCircuitScores c = model()->circuits(model()->config().context > 256 ? 4 : 16);
            toSession([id, c = std::move(c)](LmSession* t) { Q_EMIT t->detected(id, c); });
        });
    }

    void measureHeads(quint64 id, const std::shared_ptr<const LmCorpus>& corpus, int limit) {
        const QString data = trainer_ ? QCoreApplication::translate("attnlab::LmSession", "the held-out documents")
                             : corpus ? QString::fromStdString(corpus->name)
                                      : QString();
        studyHeads(id, data, [&](const HeadStudyProgress& progress) {
            if (!model()) throw std::runtime_error(noLanguageModelYet());
            HeadStudyOptions options;
            options.limit = static_cast<std::size_t>(std::max(0, limit));
            if (trainer_) return measureLmHeads(*model(), trainer_->heldOutDocuments(), options, progress);
            if (!corpus) throw std::runtime_error("no text");
            // The text read again with the model's own tokenizer.
            std::vector<std::vector<int>> documents;
            for (const std::vector<int>& d : corpus->documents)
                documents.push_back(model()->tokenizer().encode(corpus->tokenizer.decode(d)));
            return measureLmHeads(*model(), documents, options, progress);
        });
    }

    void setProbe(const std::string& text, quint64 generation) {
        probe_ = text;
        probeGeneration_ = generation;
    }

private:
    LmModelInfo openModel(const QString& path) override {
        LmModel opened = LmModel::load(lmModelArgumentPath(path.toStdString()));
        reset();
        loaded_.emplace(std::move(opened));
        return describeLm(*loaded_);
    }

    void saveModel(const std::string& path, const std::map<std::string, std::string>& extra) const override {
        if (!model()) throw std::runtime_error(noLanguageModelYet());
        model()->save(path, extra);
    }

    void dropModel() override {
        trainer_.reset();
        loaded_.reset();
    }

    void probeNow() override {
        if (probe_.empty() || !model()) return;
        LmSession* s = session_;
        try {
            LmReading r = model()->attend(probe_);
            report_.probed(probeGeneration_, [s, r = std::move(r)] { Q_EMIT s->probed(r); });
        } catch (const std::exception&) {
            // A text the model cannot read: a request for it says why.
        }
    }

    std::unique_ptr<LmTrainer> trainer_;
    std::optional<LmModel> loaded_;
    std::string probe_;
    quint64 probeGeneration_ = 0;
};

LmSession::LmSession(QObject* parent) : LmSessionBase(parent) {
    startWorker(QStringLiteral("attnlab-lm"), new LmWorker(this, reporter()));
}

bool LmSession::train(const LmRequest& request) {
    if (!request.corpus || !beginTraining()) return false;
    post([request](LmWorker& w) { w.train(request); });
    return true;
}

quint64 LmSession::attend(const QString& text) {
    const quint64 id = nextRequestId();
    post([id, text = text.toStdString()](LmWorker& w) { w.attend(id, text); });
    return id;
}

quint64 LmSession::generate(const QString& prompt, const LmGenerateOptions& options) {
    const quint64 id = nextRequestId();
    post([id, prompt = prompt.toStdString(), options](LmWorker& w) { w.generate(id, prompt, options); });
    return id;
}

quint64 LmSession::readRepeat(std::uint64_t seed) {
    const quint64 id = nextRequestId();
    post([id, seed](LmWorker& w) { w.readRepeat(id, seed); });
    return id;
}

quint64 LmSession::detect() {
    const quint64 id = nextRequestId();
    post([id](LmWorker& w) { w.detect(id); });
    return id;
}

quint64 LmSession::measureHeads(std::shared_ptr<const LmCorpus> corpus, int limit) {
    const quint64 id = nextRequestId();
    post([id, corpus = std::move(corpus), limit](LmWorker& w) { w.measureHeads(id, corpus, limit); });
    return id;
}

void LmSession::setProbe(const QString& text) {
    const quint64 generation = newProbe();
    post([text = text.toStdString(), generation](LmWorker& w) { w.setProbe(text, generation); });
}

}  // namespace attnlab
