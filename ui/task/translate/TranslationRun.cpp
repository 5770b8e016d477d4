#include "task/translate/TranslationRun.h"
#include "setup/LessonControls.h"

#include "base/TaskIds.h"

#include "task/translate/Lessons.h"
#include "task/translate/DataPanel.h"
#include "task/translate/ModelSettingsWidget.h"
#include "task/translate/TrainingSettingsWidget.h"
#include "views/View.h"
#include "views/compare/CompareView.h"
#include "views/decoding/DecodingView.h"
#include "views/corpus/CorpusView.h"
#include "views/translate/TranslationCurvesView.h"
#include "views/heads/HeadsView.h"
#include "views/translate/ProbeView.h"
#include "views/translate/TranslateView.h"
#include "views/ViewNavigator.h"

#include <QLocale>

namespace attnlab {

TranslationRun::TranslationRun(const Parts& parts, Ask ask, Report report, Status status, QObject* parent)
    : QObject(parent), p_(parts), ask_(std::move(ask)), report_(std::move(report)), status_(std::move(status)) {
    loader_ = new CorpusLoader(this);
    connect(loader_, &CorpusLoader::loaded, this, &TranslationRun::onCorpusLoaded);
    connect(loader_, &CorpusLoader::failed, this, &TranslationRun::onCorpusFailed);
}

// ---- corpus ----------------------------------------------------------------------------------------

void TranslationRun::loadCorpus(const CorpusSource& source) {
    loadId_ = loader_->load(source);
    p_.data->setLoading(source.displayName());
    status_(tr("Loading %1…").arg(source.displayName()), 0);
}

void TranslationRun::onCorpusLoaded(quint64 id, const LoadedCorpus& loaded) {
    if (id != loadId_) return;
    const bool firstCorpus = !corpus_.corpus;
    const QString previousFirst =
        corpus_.corpus && !corpus_.corpus->pairs.empty() ? QString::fromStdString(corpus_.corpus->pairs[0].source)
                                                         : QString();
    corpus_ = loaded;
    p_.corpus->setCorpus(loaded.corpus);
    p_.data->setLoaded(loaded);
    p_.model->setVocabularySizes(loaded.sourceVocabulary, loaded.targetVocabulary);
    if (loaded.source.isFile()) Q_EMIT corpusFileLoaded(loaded.source);
    const std::size_t pairs = loaded.corpus->pairs.size();
    status_(tr("Loaded %1: %2 sentence pairs.")
                .arg(loaded.source.displayName(), QLocale().toString(static_cast<qulonglong>(pairs))),
            8000);
    // Sentences to start from: the corpus's first pair, unless the user chose their own.
    if (!loaded.corpus->pairs.empty()) {
        const QString first = QString::fromStdString(loaded.corpus->pairs[0].source);
        auto replaceable = [&](const QString& sentence) {
            return sentence.trimmed().isEmpty() || (!firstCorpus && sentence.trimmed() == previousFirst);
        };
        if (replaceable(p_.probe->sentence())) {
            p_.probe->setSentence(first);
            updateProbe();
        }
        if (replaceable(p_.translate->sentence())) {
            p_.translate->setSentence(first);
            // A model opened before the corpus arrived shows this sentence at once.
            if (p_.controller->hasModel()) translate(first, p_.translate->beam());
        }
        if (replaceable(p_.heads->sentence())) p_.heads->setSentence(first);
        if (replaceable(p_.decoding->sentence())) p_.decoding->setSentence(first);
    }
    Q_EMIT titleChanged();
    Q_EMIT corpusLoaded();
    if (startWhenLoaded_) {
        startWhenLoaded_ = false;
        start(false);
    }
}

void TranslationRun::onCorpusFailed(quint64 id, const QString& message, const CorpusSource& source) {
    if (id != loadId_) return;
    startWhenLoaded_ = false;
    if (corpus_.corpus) {
        p_.data->setLoaded(corpus_);  // back to what is loaded
    } else {
        p_.data->setLoadFailed();
    }
    status_(tr("Could not open %1").arg(source.displayName()), 8000);
    const QString keep =
        corpus_.corpus ? tr("\n\nThe current corpus (%1) stays loaded.").arg(corpus_.source.displayName()) : QString();
    report_(tr("Cannot Open Corpus"), tr("The corpus could not be read:\n\n%1%2").arg(message, keep));
    Q_EMIT corpusFailed(message);
}

// ---- training --------------------------------------------------------------------------------------

void TranslationRun::start(bool paused) {
    TranslationSession* controller = p_.controller;
    if (controller->isActive()) return;
    if (!corpus_.corpus) {
        if (loader_->isLoading()) {
            startWhenLoaded_ = true;
            status_(tr("Training starts when the corpus is loaded…"), 0);
        } else {
            report_(tr("No Corpus"), tr("Load a corpus or generate a built-in dataset first."));
        }
        return;
    }
    if (controller->hasModel() && controller->isModified()) {
        const auto answer = ask_(
            tr("Start a New Run?"),
            tr("Starting builds a new model from the settings. The current model has unsaved training. Discard it?"),
            QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Discard) return;
    }
    TrainingRequest request;
    request.corpus = corpus_.corpus;
    request.config = p_.model->config();
    request.options = p_.training->options();
    request.options.tokenizer = corpus_.source.tokenizer;  // what the data panel counted and shows
    for (View* view : p_.navigator->viewsOf(QString::fromLatin1(tasks::kTranslate))) view->runStarted();
    p_.charts->setPlannedEpochs(request.options.epochs);
    modelPath_.clear();
    updateProbe();
    controller->start(request, paused);
    status_(tr("Preparing: tokenizing %1 and building the model…").arg(corpus_.source.displayName()), 0);
}

void TranslationRun::step() {
    if (p_.controller->isActive()) {
        p_.controller->step();
        return;
    }
    // From a stopped or empty session: build a new model paused, then train its first batch.
    start(true);
    if (p_.controller->isActive()) p_.controller->step();
}

void TranslationRun::reset() {
    if (p_.controller->hasModel() && p_.controller->isModified()) {
        const auto answer = ask_(tr("Discard the Model?"), tr("Reset discards the model and its unsaved training."),
                                 QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Discard) return;
    }
    discard();
    status_(tr("Reset: no model."), 5000);
}

void TranslationRun::discard() {
    p_.controller->reset();
    for (View* view : p_.navigator->viewsOf(QString::fromLatin1(tasks::kTranslate))) {
        view->clearView();
        view->modelChanged(nullptr);
    }
    modelPath_.clear();
    Q_EMIT modelDiscarded();
}

bool TranslationRun::startLesson(const QString& id) {
    const Lesson lesson = findLesson(id);
    if (lesson.id.isEmpty()) return false;
    startLesson(lesson);
    return true;
}

void TranslationRun::startDemo(const QString& dataset) {
    Lesson lesson = findLesson(QStringLiteral("heads"));
    if (dataset != lesson.dataset) {  // the same model and schedule on another built-in dataset
        lesson.dataset = dataset;
        lesson.probeSentence = QStringLiteral("the small cat sees the red car");
        lesson.translateSentence = QStringLiteral("my mother likes the big dog");
    }
    startLesson(lesson);
}

bool TranslationRun::startLesson(const Lesson& lesson) {
    if (p_.controller->isActive() || (p_.controller->hasModel() && p_.controller->isModified())) {
        const auto answer = ask_(tr("Start the Lesson?"),
                                 tr("The lesson trains a new model. The current model and its unsaved training "
                                    "will be discarded."),
                                 QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Discard) return false;
    }
    discard();
    // The lesson's hidden and locked controls before its settings, so that the panels' own
    // enabling keeps them (setup/LessonControls.h).
    for (QWidget* panel : std::initializer_list<QWidget*>{p_.data, p_.model, p_.training})
        applyLessonControls(panel, lesson.hidden, lesson.locked);
    // The lesson's dataset with its own tokenizer choice (toy-en-zh: Chinese words), whatever the
    // data panel's check box said for the previous corpus; or the lesson's corpus file.
    const CorpusSource source = lesson.corpusPath.isEmpty() ? CorpusSource::builtin(lesson.dataset, lesson.data)
                                                            : CorpusSource::tsv(lesson.corpusPath);
    if (!source.isFile()) p_.data->setDatasetSource(source);
    p_.model->setConfig(lesson.config);
    p_.training->setOptions(lesson.options);
    p_.probe->setEveryBatches(lesson.probeEveryBatches);
    p_.probe->setSentence(lesson.probeSentence);
    p_.translate->setSentence(lesson.translateSentence);
    p_.heads->setSentence(lesson.translateSentence);
    p_.compare->setSentence(lesson.translateSentence);
    p_.decoding->setSentence(lesson.translateSentence);
    lesson_ = lesson.id;
    Q_EMIT lessonStarted(lesson.title, lesson.summary);
    p_.navigator->show(lesson.tab);
    startWhenLoaded_ = true;
    loadCorpus(source);
    return true;
}

// ---- translation -----------------------------------------------------------------------------------

void TranslationRun::updateProbe() { p_.controller->setProbe(p_.probe->sentence(), p_.probe->everyBatches()); }

void TranslationRun::translate(const QString& sentence, int beam) {
    if (sentence.trimmed().isEmpty()) {
        status_(tr("Type a sentence to translate."), 5000);
        p_.translate->setError(tr("Type a sentence to translate."));
        return;
    }
    if (!p_.controller->hasModel() && !p_.controller->isPreparing()) {
        status_(tr("There is no model yet: start training or open a model."), 6000);
        return;
    }
    if (p_.translate->sentence() != sentence) p_.translate->setSentence(sentence);
    if (p_.heads->sentence() != sentence) p_.heads->setSentence(sentence);
    translateRequest_ = p_.controller->translate(sentence, beam);
}

void TranslationRun::translateCurrentSentence() {
    if (p_.controller->hasModel() && !p_.translate->sentence().trimmed().isEmpty() && !p_.controller->isPreparing())
        translate(p_.translate->sentence(), p_.translate->beam());
}

}  // namespace attnlab
