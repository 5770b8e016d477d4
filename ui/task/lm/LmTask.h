#pragma once
// The language-model task (id "lm", "Language model" in the Task box): its setup panel (LmSetupPanel),
// its views (Generate, Heads, Circuits, Curves, Importance; registered with the navigator under the
// task's id), its model on a worker thread (LmSession) and its lessons (LmLessons.h). The window knows
// it only through the Task interface.
#include "task/SessionTask.h"
#include "task/lm/LmSession.h"
#include "task/lm/LmSetupPanel.h"
#include <memory>

class QMenu;
class QWidget;

namespace attnlab {

class ImportanceView;
class LmCircuitsView;
class LmCurvesView;
class LmGenerateView;
class LmHeadsView;

class LmTask : public SessionTask {
    Q_OBJECT
public:
    explicit LmTask(const TaskContext& context);
    ~LmTask() override;

    // Task (the rest: SessionTask)
    QString id() const override;
    QString title() const override;
    QString summary() const override;
    QWidget* setupPage() const override { return page_; }
    QString defaultView() const override { return QStringLiteral("lm-circuits"); }
    QString titleText() const override;
    QList<LessonCard> lessons() const override;
    bool startLesson(const QString& id) override;
    bool startLessonFile(const LessonFile& lesson) override;
    bool setupAsLesson(LessonFile& lesson, QString* why) const override;
    // A dropped file: a .safetensors language model, a Hugging Face model folder (config.json and
    // its weights: GPT-2), or else a text to train on.
    void openFiles(const QStringList& paths) override;
    bool claimsFiles(const QStringList& paths) const override;  // a Hugging Face model folder
    QList<QAction*> fileActions() const override { return {openFolder_, openCached_}; }

    LmSetupPanel* panel() const { return panel_; }
    LmSession* session() const { return session_; }
    LmGenerateView* generateView() const { return generate_; }
    LmHeadsView* headsView() const { return heads_; }
    LmCircuitsView* circuitsView() const { return circuits_; }
    LmCurvesView* curvesView() const { return curves_; }
    ImportanceView* importanceView() const { return importance_; }

    // The text is there and was made for the context the panel asks for.
    bool hasData() const override;
    std::shared_ptr<const LmCorpus> corpus() const { return corpus_; }
    void loadData() override;  // from the panel's choice, off the GUI thread

private:
    // SessionTask
    Words words() const override;
    QString modelFileName() const override { return QStringLiteral("language-model.safetensors"); }
    void startRun() override;

    void connectSession();
    void connectViews();
    void onState();
    void chooseFile();
    void chooseModelFolder();
    void listCachedModels(QMenu* menu);
    void requestGenerate();
    void requestHeads();
    void requestRepeat();
    // The texts the views start with, from the data: a line of it (the Heads view) and its beginning
    // up to a few tokens into the repeat (Generate), unless the learner typed their own.
    void suggestTexts();

    LmSession* session_;
    LmSetupPanel* panel_;
    QWidget* page_;
    LmGenerateView* generate_;
    LmHeadsView* heads_;
    LmCircuitsView* circuits_;
    LmCurvesView* curves_;
    ImportanceView* importance_;
    std::shared_ptr<const LmCorpus> corpus_;
    LmDataChoice loadedChoice_;
    int loadedContext_ = 0;
    QString suggestedPrompt_, suggestedText_;
    quint64 generateRequest_ = 0, headsRequest_ = 0, repeatRequest_ = 0, detectRequest_ = 0;
    QString previousDataset_ = QStringLiteral("repeats");
    QAction* openFolder_;  // File > Open Hugging Face Folder…
    QAction* openCached_;  // File > Open from the Hugging Face Cache: the models found there
};

}  // namespace attnlab
