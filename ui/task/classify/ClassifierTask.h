#pragma once
// The text-classification task (id "classify"): its setup panel (ClassifierSetupPanel), its views
// (Texts, Classify, Curves, Explain, Needle; registered with the navigator under the task's id),
// its model on a worker thread (ClassifierSession) and its lessons. The window knows it only
// through the Task interface.
#include "task/classify/ClassifierSession.h"
#include "task/classify/ClassifierSetupPanel.h"  // ClassifierDataChoice
#include "task/SessionTask.h"
#include <memory>

class QThread;
class QWidget;

namespace attnlab {

class ClassifierCurvesView;
class ClassifyView;
class ExplainView;
class ImportanceView;
class NeedleView;
class TextsView;

class ClassifierTask : public SessionTask {
    Q_OBJECT
public:
    // Registers the views with the navigator.
    explicit ClassifierTask(const TaskContext& context);
    ~ClassifierTask() override;

    // Task (the rest: SessionTask)
    QString id() const override;
    QString title() const override;
    QString summary() const override;
    QWidget* setupPage() const override { return page_; }
    QString defaultView() const override { return QStringLiteral("texts"); }
    QString titleText() const override;
    QList<LessonCard> lessons() const override;
    bool startLesson(const QString& id) override;
    bool startLessonFile(const LessonFile& lesson) override;
    bool setupAsLesson(LessonFile& lesson, QString* why) const override;
    // A dropped file: a .safetensors classifier, or else a TSV corpus.
    void openFiles(const QStringList& paths) override;

    ClassifierSetupPanel* panel() const { return panel_; }
    ClassifierSession* session() const { return session_; }
    ClassifyView* classifyView() const { return classify_; }
    TextsView* textsView() const { return texts_; }
    ClassifierCurvesView* curvesView() const { return curves_; }
    ExplainView* explainView() const { return explain_; }
    NeedleView* needleView() const { return needle_; }
    ImportanceView* importanceView() const { return importance_; }

    std::shared_ptr<const ClassificationCorpus> corpus() const { return corpus_; }
    void loadCorpus();  // from the panel's data choice, off the GUI thread

private:
    // SessionTask
    Words words() const override;
    QString modelFileName() const override { return QStringLiteral("classifier.safetensors"); }
    bool hasData() const override { return corpus_ != nullptr; }
    void loadData() override { loadCorpus(); }
    void startRun() override;

    void connectSession();
    void connectViews();
    void onState();
    void chooseFile();

    ClassifierSession* session_;
    ClassifierSetupPanel* panel_;
    QWidget* page_;
    TextsView* texts_;
    ClassifyView* classify_;
    ClassifierCurvesView* curves_;
    ExplainView* explain_;
    NeedleView* needle_;
    ImportanceView* importance_;
    std::shared_ptr<const ClassificationCorpus> corpus_;
    ClassifierDataChoice loadedChoice_;  // what corpus_ was made from
    int snapshotEpoch_ = 0;
    quint64 classifyRequest_ = 0, textsRequest_ = 0, explainRequest_ = 0;
    std::vector<HeadId> classifyOff_;  // the heads switched off for classifyRequest_
    QString previousDataset_ = QStringLiteral("sentiment");
};

}  // namespace attnlab
