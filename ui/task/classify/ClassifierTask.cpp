#include "task/classify/ClassifierTask.h"
#include "base/TaskIds.h"
#include "task/LessonSetup.h"
#include "task/TaskSupport.h"
#include "views/ViewNavigator.h"
#include "task/classify/ClassifierLessons.h"
#include "session/SettingNames.h"
#include "task/classify/ClassifierSetupPanel.h"
#include "views/classify/ClassifierCurvesView.h"
#include "views/classify/ClassifyView.h"
#include "views/classify/ExplainView.h"
#include "views/classify/NeedleView.h"
#include "views/classify/TextsView.h"
#include "views/heads/ImportanceView.h"
#include "base/text/ClassifyDatasets.h"
#include "base/gettext/Gettext.h"
#include <QFileDialog>
#include <QFileInfo>
#include <QSignalBlocker>
#include <cmath>

namespace attnlab {

namespace {

// Runs on the loader thread: the corpus of a data choice, or the reason there is none.
struct LoadOutcome {
    std::shared_ptr<ClassificationCorpus> corpus;
    QString error;
};

LoadOutcome makeCorpus(const ClassifierDataChoice& c) {
    LoadOutcome out;
    try {
        ClassificationCorpus corpus;
        if (c.dataset == QLatin1String("file")) {
            corpus = readClassificationTsv(c.path.toStdString());
        } else if (c.dataset == QLatin1String("langid")) {
            const std::vector<std::string> languages = defaultLangidLanguages(kDefaultLocaleDir);
            corpus = langidDataset(kDefaultLocaleDir, languages, static_cast<std::size_t>(c.size), c.seed);
            corpus.name = "langid";
        } else {
            corpus = makeClassificationDataset(c.dataset.toStdString(), static_cast<std::size_t>(c.size), c.seed, c.length);
        }
        out.corpus = std::make_shared<ClassificationCorpus>(std::move(corpus));
    } catch (const std::exception& e) {
        out.error = SettingNames::messageOf(e);
    }
    return out;
}

QString figure(double v) { return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("–"); }

}  // namespace

ClassifierTask::ClassifierTask(const TaskContext& context)
    : SessionTask(context, new ClassifierSession, QStringLiteral("attnlab-corpus")),
      session_(static_cast<ClassifierSession*>(modelSession())) {
    panel_ = new ClassifierSetupPanel;
    page_ = TaskSupport::scrollPage(panel_);

    texts_ = new TextsView;
    classify_ = new ClassifyView;
    curves_ = new ClassifierCurvesView;
    explain_ = new ExplainView;
    needle_ = new NeedleView;
    importance_ = new ImportanceView(tr("texts"));
    const QString task = id();
    navigator()->addView(ViewGroup::Data, QStringLiteral("texts"), texts_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("classify"), classify_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("class-curves"), curves_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("explain"), explain_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("class-importance"), importance_, task);
    navigator()->addView(ViewGroup::Experiments, QStringLiteral("needle"), needle_, task);
    TaskSupport::setModelAvailable(navigator(), task, false);
    classify_->setText(QStringLiteral("the plot was not boring but the acting was awful"));
    explain_->setText(classify_->text());
    connectSession();
    connectViews();
    onState();
}

ClassifierTask::~ClassifierTask() { shutdown(); }

void ClassifierTask::connectSession() {
    ClassifierSession* s = session_;
    connect(s, &ClassifierSession::stateChanged, this, &ClassifierTask::onState);
    connect(s, &ClassifierSession::modelReady, this, [this](const ClassifierModelInfo& info) {
        classify_->setLabels(info.labels);
        explain_->setLabels(info.labels);
        classify_->setAblationMode(false);  // another model: every head on
        importance_->setModelHasHeads(info.config.architecture == ClassifierArchitecture::Transformer);
        TaskSupport::setModelAvailable(navigator(), id(), true);
        if (!session_->isTraining()) {  // a model opened from a file: answer the texts shown
            curves_->runStarted();
            classifyOff_.clear();
            classifyRequest_ = session_->classify(classify_->text());
        }
        Q_EMIT titleChanged();
    });
    connect(s, &ClassifierSession::modelDiscarded, this, [this] {
        TaskSupport::setModelAvailable(navigator(), id(), false, true);
        Q_EMIT titleChanged();
    });
    connect(s, &ClassifierSession::epochFinished, this, [this](const ClassifierEpochMetrics& m) {
        curves_->addEpoch(m);
        snapshotEpoch_ = m.epoch;  // the worker's next probe is this epoch's (it probes right after)
        QString text = tr("Epoch %1 of %2: accuracy %3, macro F1 %4")
                           .arg(m.epoch)
                           .arg(session_->model().epochsPlanned)
                           .arg(figure(m.accuracy), figure(m.macroF1));
        if (std::isfinite(m.rationaleMass))
            text += tr(", attention on the rationale %1 (uniform %2)").arg(figure(m.rationaleMass), figure(m.uniformRationaleMass));
        panel_->setStatus(text);
        Q_EMIT titleChanged();
    });
    TaskSupport::connectReports(this, s, &hooks());
    connect(s, &ClassifierSession::trainingFinished, this, [this] {
        // The explanation of the text shown is ready when the learner opens Explain.
        if (session_->hasModel() && !explain_->text().trimmed().isEmpty())
            explainRequest_ = session_->explain(explain_->text().trimmed());
    });
    connect(s, &ClassifierSession::probed, this, [this](const Classification& c) {
        if (session_->probe() != classify_->text().trimmed()) return;
        classify_->setClassification(c);
        if (snapshotEpoch_ > 0) classify_->addEpochSnapshot(snapshotEpoch_, c);
        snapshotEpoch_ = 0;
    });
    connect(s, &ClassifierSession::classified, this, [this](quint64 id, const Classification& c) {
        if (id == classifyRequest_) classify_->setClassification(c, classifyOff_);
        if (id == textsRequest_) texts_->setAttention(c);
    });
    connect(s, &ClassifierSession::explained, this, [this](quint64 id, const Explanation& e) {
        if (id == explainRequest_) explain_->setExplanation(e);
    });
    connect(s, &ClassifierSession::requestFailed, this, [this](quint64 id, const QString& message) {
        if (id == classifyRequest_) classify_->setFailed(message);
        if (id == explainRequest_) explain_->setExplainFailed(message);
    });
    connect(s, &ClassifierSession::faithfulnessProgress, explain_, &ExplainView::setFaithfulnessProgress);
    connect(s, &ClassifierSession::faithfulnessFinished, this,
            [this](const FaithfulnessResult& r, bool) { explain_->setFaithfulnessResult(r); });
    connect(s, &ClassifierSession::faithfulnessFailed, explain_, &ExplainView::setFaithfulnessFailed);
}

void ClassifierTask::connectViews() {
    // What the views show changes with these (connected after the views are fed, in connectSession);
    // the window re-checks what it can export.
    connect(session_, &ClassifierSession::classified, this, &ClassifierTask::actionsChanged);
    connect(session_, &ClassifierSession::explained, this, &ClassifierTask::actionsChanged);
    connect(session_, &ClassifierSession::epochFinished, this, &ClassifierTask::actionsChanged);
    connect(session_, &ClassifierSession::probed, this, &ClassifierTask::actionsChanged);
    connect(session_, &ClassifierSession::faithfulnessFinished, this, &ClassifierTask::actionsChanged);
    connect(needle_, &NeedleView::needleFinished, this, &ClassifierTask::actionsChanged);
    connect(panel_, &ClassifierSetupPanel::chooseFileRequested, this, &ClassifierTask::chooseFile);
    connect(panel_, &ClassifierSetupPanel::dataChanged, this, [this] {
        if (panel_->data().dataset != QLatin1String("file")) previousDataset_ = panel_->data().dataset;
        loadCorpus();
    });
    connect(classify_, &ClassifyView::classifyRequested, this, [this](const QString& text) {
        session_->setProbe(text);
        classifyOff_ = classify_->switchedOff();
        classifyRequest_ = session_->classify(text, classifyOff_);
    });
    connect(explain_, &ExplainView::explainRequested, this,
            [this](const QString& text, int classIndex) { explainRequest_ = session_->explain(text, classIndex); });
    connect(explain_, &ExplainView::faithfulnessRequested, this, [this](bool baseline) {
        FaithfulnessOptions options;
        const ClassifierTrainingOptions training = panel_->options();
        options.baselineEpochs = baseline ? training.epochs : 0;
        options.seed = training.seed;
        options.validationFraction = training.validationFraction;
        if (!session_->runFaithfulness(options, session_->corpus() ? session_->corpus() : corpus_))
            explain_->setFaithfulnessFailed(tr("Train or open a classifier, and choose its data, first."));
    });
    connect(explain_, &ExplainView::faithfulnessStopRequested, session_, &ClassifierSession::stop);
    TaskSupport::connectImportance(
        this, importance_, session_, [this](int limit) { return session_->measureHeads(limit, corpus_); },
        [this] { Q_EMIT actionsChanged(); });
    connect(texts_, &TextsView::attentionRequested, this,
            [this](const QString& text) { textsRequest_ = session_->classify(text); });
    connect(texts_, &TextsView::classifyRequested, this, [this](const QString& text) {
        classify_->setText(text);
        session_->setProbe(text);
        classifyOff_ = classify_->switchedOff();
        classifyRequest_ = session_->classify(text, classifyOff_);
        navigator()->show(QStringLiteral("classify"));
    });
    connect(texts_, &TextsView::explainRequested, this, [this](const QString& text) {
        explain_->setText(text);
        explainRequest_ = session_->explain(text);
        navigator()->show(QStringLiteral("explain"));
    });
}

void ClassifierTask::onState() {
    panel_->setState(session_->isBusy(), session_->isTraining(), session_->hasModel());
    explain_->setFaithfulnessRunning(session_->isExperimenting());
    sessionStateChanged();
}

void ClassifierTask::loadCorpus() {
    const ClassifierDataChoice choice = panel_->data();
    if (choice.dataset == QLatin1String("file") && choice.path.isEmpty()) return;
    panel_->setStatus(tr("Making the texts…"));
    loadInBackground<LoadOutcome>([choice] { return makeCorpus(choice); }, [this, choice](LoadOutcome& outcome) {
        if (!outcome.corpus) {
            panel_->setStatus(QString());
            if (corpus_) {  // the panel shows the corpus that stays
                const QSignalBlocker quiet(panel_);
                panel_->setData(loadedChoice_);
            }
            hooks().reportError(tr("Cannot Open Corpus"), outcome.error);
            return false;
        }
        corpus_ = outcome.corpus;
        loadedChoice_ = choice;
        texts_->setCorpus(corpus_);
        panel_->setStatus(tr("%1: %2 texts in %3 classes.")
                              .arg(choice.describe())
                              .arg(corpus_->examples.size())
                              .arg(corpus_->labels.size()));
        return true;
    });
}

SessionTask::Words ClassifierTask::words() const {
    Words w;
    w.discard = tr("The current classifier and its unsaved training will be discarded.");
    w.trainTitle = tr("Train a New Classifier?");
    w.openTitle = tr("Open a Classifier?");
    w.openDialog = tr("Open Classifier");
    w.saveDialog = tr("Save Classifier");
    w.closeTitle = tr("Save the Classifier?");
    w.closeText = tr("The classifier has unsaved training.");
    return w;
}

void ClassifierTask::startRun() {
    ClassifierRequest request;
    request.corpus = corpus_;
    request.config = panel_->config();
    request.options = panel_->options();
    session_->setProbe(classify_->text().trimmed());
    if (!session_->train(request)) return;
    panel_->setStatus(tr("Building the model…"));
}

bool ClassifierTask::startLesson(const QString& id) {
    const LessonFile* file = findBuiltinLessonFile(id);
    if (file == nullptr || tasks::windowTaskOf(file->task) != tasks::kClassify) return false;
    return startLessonFile(*file);
}

bool ClassifierTask::startLessonFile(const LessonFile& file) {
    if (tasks::windowTaskOf(file.task) != tasks::kClassify) return false;
    ClassifierLesson l;
    try {
        l = classifierLessonFromFile(file);
    } catch (const std::exception& e) {
        hooks().reportError(tr("Cannot Open Lesson"), QString::fromStdString(e.what()));
        return false;
    }
    return beginLesson(l, [this, &l] {
        ClassifierDataChoice data;
        data.dataset = l.dataset;
        data.path = l.path;
        data.size = l.texts;
        data.seed = l.dataSeed;
        data.length = l.length;
        panel_->setConfig(l.config);
        panel_->setOptions(l.options);
        classify_->setText(l.text);
        explain_->setText(l.text);
        panel_->setData(data);  // loads the corpus, then trains
    });
}

bool ClassifierTask::setupAsLesson(LessonFile& lesson, QString* why) const {
    const ClassifierDataChoice data = panel_->data();
    if (data.dataset == QLatin1String("file") && data.path.isEmpty()) {
        if (why != nullptr) *why = tr("Choose the data first: no corpus file is chosen.");
        return false;
    }
    lesson.task = tasks::kClassify;
    if (data.dataset == QLatin1String("file")) {
        lesson.path = data.path.toStdString();
    } else {
        lesson.dataset = data.dataset.toStdString();
        lesson.size = static_cast<std::size_t>(data.size);
        lesson.dataSeed = data.seed;
        if (data.dataset == QLatin1String("needle")) lesson.length = data.length;
    }
    lesson.model = toJson(panel_->config());
    const ClassifierTrainingOptions options = panel_->options();
    lesson.training = lessonTrainingOf(options);
    lesson.seed = options.seed;
    const QString text = classify_->text().trimmed();
    if (!text.isEmpty()) lesson.probe["text"] = text.toStdString();
    const QString view = navigator()->taskOf(navigator()->currentName()) == id() ? navigator()->currentName() : defaultView();
    describeSavedSetup(lesson, tr("Text classification: %1").arg(data.describe()),
                       tr("A setup saved from AttnLab: say here what the class should look for."), view, page_);
    return true;
}

void ClassifierTask::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(windowWidget(), tr("Open Classification Corpus"), lastDirectory(),
                                                      tr("Tab-separated text and label (*.tsv *.txt);;All files (*)"));
    ClassifierDataChoice data = panel_->data();
    if (path.isEmpty()) {
        data.dataset = previousDataset_;
    } else {
        lastDirectory() = QFileInfo(path).absolutePath();
        data.dataset = QStringLiteral("file");
        data.path = path;
    }
    panel_->setData(data);
}

void ClassifierTask::openFiles(const QStringList& paths) {
    if (paths.isEmpty()) return;
    const QString& path = paths.front();
    if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
        openModel(path);
        return;
    }
    ClassifierDataChoice data = panel_->data();
    data.dataset = QStringLiteral("file");
    data.path = path;
    panel_->setData(data);
}

QString ClassifierTask::titleText() const {
    if (session_->hasModel()) {
        const ClassifierModelInfo& m = session_->model();
        const QString arch = m.config.architecture == ClassifierArchitecture::Transformer
                                 ? tr("Transformer classifier")
                                 : tr("GRU classifier, %1 pooling").arg(QString::fromStdString(toString(m.config.pooling)));
        return TaskSupport::modelTitle(m.source, arch);
    }
    return corpus_ ? QString::fromStdString(corpus_->name) : tr("no corpus");
}

QString ClassifierTask::id() const { return QString::fromLatin1(tasks::kClassify); }

QString ClassifierTask::title() const { return tr("Text classification"); }

QString ClassifierTask::summary() const {
    return tr("A GRU with attention pooling, or a Transformer, labels texts; the explanation lab asks whether its "
              "attention explains the decision.");
}

QList<LessonCard> ClassifierTask::lessons() const { return classifierLessonCards(); }

}  // namespace attnlab
