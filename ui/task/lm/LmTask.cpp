#include "task/lm/LmTask.h"
#include "base/gettext/Gettext.h"
#include "base/InputError.h"
#include "base/lm/LmFortunes.h"
#include "base/lm/LmGettext.h"
#include "base/lm/LmHubCache.h"
#include "base/lm/LmText.h"
#include "session/SettingNames.h"
#include "task/LessonSetup.h"
#include "task/TaskSupport.h"
#include "task/lm/LmLessons.h"
#include "views/ViewNavigator.h"
#include "views/heads/ImportanceView.h"
#include "views/lm/LmCircuitsView.h"
#include "views/lm/LmCurvesView.h"
#include "views/lm/LmGenerateView.h"
#include "views/lm/LmHeadsView.h"
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSignalBlocker>

namespace attnlab {

namespace {

// Runs on the loader thread: the text of a data choice, or the reason there is none.
struct LmLoadOutcome {
    std::shared_ptr<LmCorpus> corpus;
    QString error;
};

LmLoadOutcome makeLmCorpus(const LmDataChoice& c, int context) {
    LmLoadOutcome out;
    try {
        if (c.dataset == QLatin1String("repeats")) {
            LmRepeatsOptions o;
            o.context = context;
            if (context <= o.maxPrefix + o.maxSequence)
                throw InputError("repeats", 0,
                                 QCoreApplication::translate("attnlab::LmTask",
                                                             "the induction set needs a context above %1 tokens "
                                                             "(a prefix and two copies of a sequence)")
                                     .arg(o.maxPrefix + o.maxSequence)
                                     .toStdString());
            out.corpus = std::make_shared<LmCorpus>(makeRepeats(static_cast<std::size_t>(c.size), c.seed, o));
        } else if (c.dataset == QLatin1String("gettext")) {
            out.corpus = std::make_shared<LmCorpus>(
                lmGettextEnglish(kDefaultLocaleDir, "fr", parseLmTokenKind(c.tokens.toStdString()), context));
        } else if (c.dataset == QLatin1String("fortunes")) {
            out.corpus = std::make_shared<LmCorpus>(
                lmFortunes(kFortunesDir, parseLmTokenKind(c.tokens.toStdString()), context));
        } else {
            out.corpus = std::make_shared<LmCorpus>(
                readLmText(c.path.toStdString(), parseLmTokenKind(c.tokens.toStdString()), context));
        }
    } catch (const std::exception& e) {
        out.corpus.reset();
        out.error = SettingNames::messageOf(e);
    }
    return out;
}

}  // namespace

LmTask::LmTask(const TaskContext& context)
    : SessionTask(context, new LmSession, QStringLiteral("attnlab-lm-data")),
      session_(static_cast<LmSession*>(modelSession())) {
    panel_ = new LmSetupPanel;
    panel_->setOptions(lmWindowTrainingOptions());
    page_ = TaskSupport::scrollPage(panel_);
    generate_ = new LmGenerateView;
    heads_ = new LmHeadsView;
    circuits_ = new LmCircuitsView;
    curves_ = new LmCurvesView;
    importance_ = new ImportanceView(tr("held-out documents"));
    const QString task = id();
    navigator()->addView(ViewGroup::Watch, QStringLiteral("lm-circuits"), circuits_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("lm-generate"), generate_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("lm-curves"), curves_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("lm-heads"), heads_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("lm-importance"), importance_, task);
    TaskSupport::setModelAvailable(navigator(), task, false);
    openFolder_ = new QAction(tr("Open Hugging Face Folder…"), this);
    openFolder_->setToolTip(tr("Open a GPT-2 model folder downloaded from Hugging Face (config.json, "
                               "model.safetensors, vocab.json and merges.txt or tokenizer.json)."));
    connect(openFolder_, &QAction::triggered, this, &LmTask::chooseModelFolder);
    openCached_ = new QAction(tr("Open from the Hugging Face Cache"), this);
    auto* cached = new QMenu(windowWidget());
    openCached_->setMenu(cached);
    connect(cached, &QMenu::aboutToShow, this, [this, cached] { listCachedModels(cached); });
    connectSession();
    connectViews();
    onState();
}

LmTask::~LmTask() { shutdown(); }

void LmTask::connectSession() {
    LmSession* s = session_;
    connect(s, &LmSession::stateChanged, this, &LmTask::onState);
    connect(s, &LmSession::modelReady, this, [this](const LmModelInfo& info) {
        importance_->setModelHasHeads(true);
        TaskSupport::setModelAvailable(navigator(), id(), true);
        const bool opened = !session_->isTraining();
        if (opened) {  // opened from a file: its heads, a continuation, then its scores (below)
            circuits_->runStarted();
            curves_->runStarted();
            panel_->setStatus(tr("Opened: %1 layers of %2 heads, context %3, %4 tokens.")
                                  .arg(info.config.layers)
                                  .arg(info.config.heads)
                                  .arg(info.config.context)
                                  .arg(info.tokens));
        } else {
            panel_->setStatus(tr("Training on %1 documents (%2 held out): %3 parameters.")
                                  .arg(info.trainingDocuments)
                                  .arg(info.validationDocuments)
                                  .arg(info.parameters));
        }
        session_->setProbe(heads_->text());
        requestHeads();
        if (!generate_->prompt().isEmpty()) requestGenerate();
        if (circuits_->selectedHead()) requestRepeat();
        // Last: on a model of GPT-2's size the circuits' probes take the longest, and the worker
        // answers in order.
        if (opened) detectRequest_ = session_->detect();
        Q_EMIT titleChanged();
    });
    connect(s, &LmSession::modelDiscarded, this, [this] {
        TaskSupport::setModelAvailable(navigator(), id(), false, true);
        Q_EMIT titleChanged();
    });
    connect(s, &LmSession::reported, this, [this](const LmStepMetrics& m) {
        circuits_->addReport(m);
        curves_->addReport(m);
        panel_->setStatus(tr("Step %1 of %2: loss %3, held out %4, copy accuracy %5")
                              .arg(m.step)
                              .arg(session_->model().stepsPlanned)
                              .arg(m.trainLoss, 0, 'f', 3)
                              .arg(m.validationLoss, 0, 'f', 3)
                              .arg(m.circuits.copyAccuracy, 0, 'f', 2));
        if (generate_->hasAnswer()) requestGenerate();  // the continuation as the model is now
        if (circuits_->selectedHead()) requestRepeat();
        Q_EMIT titleChanged();
        Q_EMIT actionsChanged();
    });
    TaskSupport::connectReports(this, s, &hooks());
    connect(s, &LmSession::trainingFinished, this, [this] { requestHeads(); });
    connect(s, &LmSession::probed, this, [this](const LmReading& r) {
        if (session_->hasModel()) heads_->setReading(r);
    });
    connect(s, &LmSession::attended, this, [this](quint64 id, const LmReading& r) {
        if (id == headsRequest_) heads_->setReading(r);
        Q_EMIT actionsChanged();
    });
    connect(s, &LmSession::generated, this, [this](quint64 id, const LmGenerated& g) {
        if (id == generateRequest_) generate_->setGenerated(g);
        Q_EMIT actionsChanged();
    });
    connect(s, &LmSession::repeatRead, this, [this](quint64 id, const LmReading& r) {
        if (id == repeatRequest_) circuits_->setRepeat(r);
    });
    connect(s, &LmSession::detected, this, [this](quint64 id, const LmCircuitScores& c) {
        if (id == detectRequest_) circuits_->setScores(c);
        Q_EMIT actionsChanged();
    });
    connect(s, &LmSession::requestFailed, this, [this](quint64 id, const QString& message) {
        if (id == generateRequest_) generate_->setFailed(message);
        if (id == headsRequest_) heads_->setFailed(message);
        if (id == repeatRequest_) circuits_->setRepeatFailed(message);
        if (id == detectRequest_) panel_->setStatus(message);
    });
}

void LmTask::connectViews() {
    connect(generate_, &LmGenerateView::generateRequested, this, &LmTask::requestGenerate);
    connect(heads_, &LmHeadsView::textChanged, this, [this](const QString& text) {
        session_->setProbe(text);
        requestHeads();
    });
    connect(circuits_, &LmCircuitsView::headSelected, this, [this] { requestRepeat(); });
    TaskSupport::connectImportance(
        this, importance_, session_, [this](int limit) { return session_->measureHeads(corpus_, limit); },
        [this] { Q_EMIT actionsChanged(); });
    connect(panel_, &LmSetupPanel::chooseFileRequested, this, &LmTask::chooseFile);
    connect(panel_, &LmSetupPanel::dataChanged, this, [this] {
        if (!panel_->data().isFile()) previousDataset_ = panel_->data().dataset;
        loadData();
    });
}

void LmTask::onState() {
    panel_->setState(session_->isBusy(), session_->isTraining(), session_->hasModel());
    sessionStateChanged();
}

void LmTask::requestGenerate() {
    if (!session_->hasModel()) return;
    generateRequest_ = session_->generate(generate_->prompt(), generate_->options());
}

void LmTask::requestHeads() {
    if (!session_->hasModel() || heads_->text().isEmpty()) return;
    headsRequest_ = session_->attend(heads_->text());
}

void LmTask::requestRepeat() {
    if (!session_->hasModel()) return;
    repeatRequest_ = session_->readRepeat(7);
}

bool LmTask::hasData() const { return corpus_ != nullptr && loadedContext_ == panel_->config().context; }

void LmTask::suggestTexts() {
    if (!corpus_ || corpus_->documents.empty()) return;
    const LmCorpus& c = *corpus_;
    const std::vector<int>& first = c.documents.front();
    std::size_t promptTokens = std::min<std::size_t>(first.size(), 24);
    if (!c.repeats.empty()) {  // the prefix, the sequence and four tokens of its repeat
        const LmRepeat& r = c.repeats.front();
        promptTokens = std::min<std::size_t>(first.size(), static_cast<std::size_t>(r.prefix + r.sequence + 4));
    }
    const std::size_t textTokens = std::min<std::size_t>(first.size(), 48);
    const QString prompt = QString::fromStdString(
        c.tokenizer.decode(std::vector<int>(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(promptTokens))));
    const QString text = QString::fromStdString(
        c.tokenizer.decode(std::vector<int>(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(textTokens))));
    // Replace only what the learner has not changed.
    if (generate_->prompt().isEmpty() || generate_->prompt() == suggestedPrompt_) generate_->setPrompt(prompt);
    if (heads_->text().isEmpty() || heads_->text() == suggestedText_) {
        heads_->setText(text);
        session_->setProbe(text);
    }
    suggestedPrompt_ = prompt;
    suggestedText_ = text;
}

void LmTask::loadData() {
    const LmDataChoice choice = panel_->data();
    if (choice.isFile() && choice.path.isEmpty()) return;
    const int context = panel_->config().context;
    panel_->setStatus(tr("Reading the text…"));
    loadInBackground<LmLoadOutcome>([choice, context] { return makeLmCorpus(choice, context); },
                                    [this, choice, context](LmLoadOutcome& outcome) {
                                        if (!outcome.corpus) {
                                            panel_->setStatus(QString());
                                            if (corpus_) {  // the panel shows the text that stays
                                                const QSignalBlocker quiet(panel_);
                                                panel_->setData(loadedChoice_);
                                            }
                                            hooks().reportError(tr("Cannot Read the Text"), outcome.error);
                                            return false;
                                        }
                                        corpus_ = outcome.corpus;
                                        loadedChoice_ = choice;
                                        loadedContext_ = context;
                                        std::size_t tokens = 0;
                                        for (const auto& d : corpus_->documents) tokens += d.size();
                                        QString status = tr("%1: %2 documents, %3 tokens, a vocabulary of %4.")
                                                             .arg(loadedChoice_.describe())
                                                             .arg(corpus_->documents.size())
                                                             .arg(tokens)
                                                             .arg(corpus_->tokenizer.size());
                                        if (corpus_->cut > 0)
                                            status += QLatin1Char(' ') +
                                                      tr("%n document(s) longer than the context were cut.", nullptr,
                                                         corpus_->cut);
                                        panel_->setStatus(status);
                                        suggestTexts();
                                        return true;
                                    });
}

SessionTask::Words LmTask::words() const {
    Words w;
    w.discard = tr("The current language model and its unsaved training will be discarded.");
    w.trainTitle = tr("Train a New Language Model?");
    w.openTitle = tr("Open a Language Model?");
    w.openDialog = tr("Open Language Model");
    w.saveDialog = tr("Save Language Model");
    w.closeTitle = tr("Save the Language Model?");
    w.closeText = tr("The language model has unsaved training.");
    return w;
}

void LmTask::startRun() {
    LmRequest request;
    request.corpus = corpus_;
    request.config = panel_->config();
    request.options = panel_->options();
    if (!session_->train(request)) return;
    panel_->setStatus(tr("Building the model…"));
}

bool LmTask::startLesson(const QString& id) {
    const LessonFile* file = findBuiltinLessonFile(id);
    if (file == nullptr || file->task != kLmTask) return false;
    return startLessonFile(*file);
}

bool LmTask::setupAsLesson(LessonFile& lesson, QString* why) const {
    const LmDataChoice data = panel_->data();
    if (data.isFile()) {
        if (why != nullptr) *why = tr("A lesson of this task reads a built-in text (repeats, gettext or fortunes).");
        return false;
    }
    lesson.task = kLmTask;
    lesson.dataset = data.dataset.toStdString();
    lesson.size = static_cast<std::size_t>(data.size);
    lesson.dataSeed = data.seed;
    lesson.model = toJson(panel_->config());
    const LmTrainingOptions options = panel_->options();
    lesson.training = lessonTrainingOf(options);
    lesson.training.epochs.reset();
    lesson.training.steps = options.steps;
    lesson.training.warmup = options.warmup;
    lesson.seed = options.seed;
    const QString view = navigator()->taskOf(navigator()->currentName()) == id() ? navigator()->currentName() : defaultView();
    describeSavedSetup(lesson, tr("Language model: %1").arg(data.describe()),
                       tr("A setup saved from AttnLab: say here what the class should look for."), view, setupPage());
    return true;
}

bool LmTask::startLessonFile(const LessonFile& file) {
    if (file.task != kLmTask) return false;
    LmLesson l;
    try {
        l = lmLessonFromFile(file);
    } catch (const std::exception& e) {
        hooks().reportError(tr("Cannot Open Lesson"), QString::fromStdString(e.what()));
        return false;
    }
    return beginLesson(l, [this, &l] {
        panel_->setConfig(l.config);
        panel_->setOptions(l.options);
        panel_->setData(l.data);  // reads the text, then trains
    });
}

void LmTask::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(windowWidget(), tr("Open a Text"), lastDirectory(),
                                                      tr("Text files (*.txt *.text *.md);;All files (*)"));
    LmDataChoice data = panel_->data();
    if (path.isEmpty()) {
        data.dataset = previousDataset_;
        data.path.clear();
    } else {
        lastDirectory() = QFileInfo(path).absolutePath();
        data.dataset = QStringLiteral("file");
        data.path = path;
    }
    panel_->setData(data);
}

void LmTask::chooseModelFolder() {
    const QString dir = QFileDialog::getExistingDirectory(windowWidget(), tr("Open a Hugging Face Model Folder"),
                                                          lastDirectory());
    if (dir.isEmpty()) return;
    lastDirectory() = QFileInfo(dir).absolutePath();
    openModel(dir);
}

void LmTask::listCachedModels(QMenu* menu) {
    menu->clear();
    const std::vector<LmHubModel> models = lmHubListModels();
    if (models.empty()) {
        QAction* none = menu->addAction(tr("No models in %1").arg(QString::fromStdString(lmHubCacheRoot().path)));
        none->setEnabled(false);
        return;
    }
    for (const LmHubModel& m : models) {
        const QString name = QString::fromStdString(m.name);
        QAction* a = menu->addAction(m.modelType.empty() ? name
                                                         : QStringLiteral("%1 (%2)").arg(name, QString::fromStdString(m.modelType)));
        a->setEnabled(m.problem.empty() && !m.folder.empty());
        a->setToolTip(QString::fromStdString(m.problem.empty() ? m.folder : m.problem));
        const QString folder = QString::fromStdString(m.folder);
        connect(a, &QAction::triggered, this, [this, folder] { openModel(folder); });
    }
}

bool LmTask::claimsFiles(const QStringList& paths) const {
    return paths.size() == 1 && QFileInfo(paths.front()).isDir() &&
           QFileInfo(QDir(paths.front()).filePath(QStringLiteral("config.json"))).isFile();
}

void LmTask::openFiles(const QStringList& paths) {
    if (paths.isEmpty()) return;
    const QString& path = paths.front();
    if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive) || claimsFiles(paths)) {
        openModel(path);
        return;
    }
    LmDataChoice data = panel_->data();
    data.dataset = QStringLiteral("file");
    data.path = path;
    panel_->setData(data);
}

QString LmTask::titleText() const {
    if (session_->hasModel()) {
        const LmModelInfo& m = session_->model();
        return TaskSupport::modelTitle(m.source, tr("GPT, %1 layers × %2 heads").arg(m.config.layers).arg(m.config.heads));
    }
    return corpus_ ? QString::fromStdString(corpus_->name) : tr("no text");
}

QString LmTask::id() const { return QString::fromLatin1(kLmTask); }

QString LmTask::title() const { return tr("Language model"); }

QString LmTask::summary() const {
    return tr("A GPT-style language model learns to predict the next token; on repeated sequences an induction head "
              "forms in front of you.");
}

QList<LessonCard> LmTask::lessons() const { return lmLessonCards(); }

}  // namespace attnlab
