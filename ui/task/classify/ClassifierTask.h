#pragma once
// The text-classification task (id "classify"): its setup panel (ClassifierSetupPanel), its views
// (Texts, Classify, Curves, Explain, Needle; registered with the navigator under the task's id),
// its model on a worker thread (ClassifierSession) and its lessons. The window knows it only
// through the Task interface.
#include "session/ClassifierSession.h"
#include "setup/ClassifierSetupPanel.h"  // ClassifierDataChoice
#include "task/Task.h"
#include <memory>

class QThread;
class QWidget;

namespace attnlab {

class ClassifierCurvesView;
class ClassifyView;
class ExplainView;
class NeedleView;
class TextsView;

class ClassifierTask : public Task {
    Q_OBJECT
public:
    // Registers the views with the navigator.
    explicit ClassifierTask(const TaskContext& context);
    ~ClassifierTask() override;

    // Task
    QString id() const override;
    QString title() const override;
    QString summary() const override;
    QWidget* setupPage() const override { return page_; }
    QString defaultView() const override { return QStringLiteral("texts"); }
    void activate() override;  // makes the corpus on first use
    bool hasModel() const override { return session_->hasModel(); }
    bool isModified() const override { return session_->isModified(); }
    bool isBusy() const override { return session_->isBusy(); }
    void openModel(const QString& path) override;
    void openModelDialog() override;
    void saveModel() override { saveModelDialog(); }
    void saveModelAs() override { saveModelDialog(); }
    QString titleText() const override;
    QList<LessonCard> lessons() const override;
    bool startLesson(const QString& id) override;
    QString lesson() const override { return lesson_; }
    // A dropped file: a .safetensors classifier, or else a TSV corpus.
    void openFiles(const QStringList& paths) override;
    bool confirmClose() override;
    void shutdown() override;

    ClassifierSetupPanel* panel() const { return panel_; }
    ClassifierSession* session() const { return session_; }
    ClassifyView* classifyView() const { return classify_; }
    TextsView* textsView() const { return texts_; }
    ClassifierCurvesView* curvesView() const { return curves_; }
    ExplainView* explainView() const { return explain_; }
    NeedleView* needleView() const { return needle_; }

    std::shared_ptr<const ClassificationCorpus> corpus() const { return corpus_; }
    bool isLoadingCorpus() const { return loader_ != nullptr; }
    void loadCorpus();  // from the panel's data choice, off the GUI thread
    void train();
    void saveModelTo(const QString& path);

private:
    void connectSession();
    void connectViews();
    bool confirmDiscard(const QString& title);
    void onState();
    void saveModelDialog();
    QString askSavePath();  // the file dialog, with .safetensors added; empty if cancelled
    void chooseFile();

    ClassifierSession* session_;
    ClassifierSetupPanel* panel_;
    QWidget* page_;
    TextsView* texts_;
    ClassifyView* classify_;
    ClassifierCurvesView* curves_;
    ExplainView* explain_;
    NeedleView* needle_;
    std::shared_ptr<const ClassificationCorpus> corpus_;
    ClassifierDataChoice loadedChoice_;  // what corpus_ was made from
    QThread* loader_ = nullptr;
    quint64 loadGeneration_ = 0;
    bool trainWhenLoaded_ = false;
    bool trainWhenIdle_ = false;
    bool activated_ = false;
    int snapshotEpoch_ = 0;
    quint64 classifyRequest_ = 0, textsRequest_ = 0, explainRequest_ = 0;
    QString lesson_;
    QString previousDataset_ = QStringLiteral("sentiment");
};

}  // namespace attnlab
