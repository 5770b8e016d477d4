#pragma once
// The text-classification task in the main window: its setup panel (ClassifierSetupPanel), its views
// (Texts, Classify, Curves, Explain, Needle; registered with the navigator under the task id
// "classify"), its model on a worker thread (ClassifierSession) and its lessons. MainWindow creates one,
// puts panel() into the setup dock and shows it when the Task box says "classify"; everything the task
// does is wired here, so the window knows it only through this class.
#include "session/ClassifierSession.h"
#include "setup/ClassifierSetupPanel.h"  // ClassifierDataChoice
#include "window/TaskSupport.h"  // TaskHooks
#include <QObject>
#include <memory>

class QThread;
class QWidget;

namespace attnlab {

class ClassifierCurvesView;
class ClassifierSetupPanel;
class ClassifyView;
class ExplainView;
class NeedleView;
class TextsView;
class ViewNavigator;

class ClassifierTask : public QObject {
    Q_OBJECT
public:
    static constexpr const char* kId = "classify";

    using Hooks = TaskHooks;

    // Registers the views with the navigator (task "classify").
    ClassifierTask(QWidget* window, ViewNavigator* navigator, Hooks hooks);
    ~ClassifierTask() override;

    QWidget* panelPage() const { return page_; }  // the setup panel in its scroll area
    ClassifierSetupPanel* panel() const { return panel_; }
    ClassifierSession* session() const { return session_; }
    ClassifyView* classifyView() const { return classify_; }
    TextsView* textsView() const { return texts_; }
    ClassifierCurvesView* curvesView() const { return curves_; }
    ExplainView* explainView() const { return explain_; }
    NeedleView* needleView() const { return needle_; }

    // The task became the current one: makes the corpus on first use.
    void activate();
    std::shared_ptr<const ClassificationCorpus> corpus() const { return corpus_; }
    bool isLoadingCorpus() const { return loader_ != nullptr; }
    void loadCorpus();  // from the panel's data choice, off the GUI thread

    void train();
    bool startLesson(const QString& id);
    QString lesson() const { return lesson_; }
    void openModel(const QString& path);
    // A file dropped on the window: a .safetensors classifier, or else a TSV corpus.
    void openDropped(const QString& path);
    void saveModel(const QString& path);
    // Before the window closes: false if the user cancelled (asked to save a modified model).
    bool confirmClose();
    void shutdown();
    QString titleFor() const;  // the window title's part: the model or the corpus

Q_SIGNALS:
    void corpusReady();
    void lessonStarted(const QString& title, const QString& summary);
    void titleChanged();
    void viewsChanged();  // a view got something new to show (and perhaps to export)

private:
    void connectSession();
    void connectViews();
    bool confirmDiscard(const QString& title);
    void onState();
    void openModelDialog();
    void saveModelDialog();
    QString askSavePath();  // the file dialog, with .safetensors added; empty if cancelled
    void chooseFile();

    QWidget* window_;
    ViewNavigator* navigator_;
    Hooks hooks_;
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
    QString lastDirectory_;
    QString previousDataset_ = QStringLiteral("sentiment");
};

}  // namespace attnlab
