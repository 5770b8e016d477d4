#pragma once
// One translation session in the main window: the corpus being loaded and trained on, the training
// run (start, step, reset; lessons and the demo set one up), the probe, and the translation requests
// the views make. It drives the TranslationSession and tells the views through the View interface;
// the window only shows what it reports.
#include "task/translate/CorpusLoader.h"
#include "task/translate/TranslationSession.h"

#include <QMessageBox>
#include <QObject>
#include <QString>

#include <functional>

namespace attnlab {

class CompareView;
class DecodingView;
class CorpusView;
class DataPanel;
class HeadsView;
class ModelSettingsWidget;
class ProbeView;
class TranslationCurvesView;
class TrainingSettingsWidget;
class TranslateView;
class ViewNavigator;
struct Lesson;

class TranslationRun : public QObject {
    Q_OBJECT

public:
    struct Parts {
        TranslationSession* controller = nullptr;
        DataPanel* data = nullptr;
        ModelSettingsWidget* model = nullptr;
        TrainingSettingsWidget* training = nullptr;
        ViewNavigator* navigator = nullptr;
        CorpusView* corpus = nullptr;
        TranslateView* translate = nullptr;
        ProbeView* probe = nullptr;
        HeadsView* heads = nullptr;
        CompareView* compare = nullptr;
        DecodingView* decoding = nullptr;
        TranslationCurvesView* charts = nullptr;
    };
    using Ask = std::function<QMessageBox::StandardButton(const QString& title, const QString& text,
                                                          QMessageBox::StandardButtons buttons,
                                                          QMessageBox::StandardButton defaultButton)>;
    using Report = std::function<void(const QString& title, const QString& message)>;
    using Status = std::function<void(const QString& message, int timeoutMs)>;

    TranslationRun(const Parts& parts, Ask ask, Report report, Status status, QObject* parent);

    void loadCorpus(const CorpusSource& source);
    const LoadedCorpus& corpus() const { return corpus_; }
    bool isLoadingCorpus() const { return loader_->isLoading(); }

    void start(bool paused);
    void step();
    void reset();    // asks first when there is unsaved training
    void discard();  // no questions asked: the controller reset and every view cleared
    bool startLesson(const QString& id);  // false for an unknown id
    bool startLesson(const Lesson& lesson);  // false if the user kept the current model
    void startDemo(const QString& dataset);  // the "heads" lesson, on any built-in dataset
    QString lesson() const { return lesson_; }

    void translate(const QString& sentence, int beam);
    bool isCurrentTranslation(quint64 id) const { return id == translateRequest_; }
    void updateProbe();
    // A model arrived (trained, opened or reset): translate the Translate view's sentence with it.
    void translateCurrentSentence();

    QString modelPath() const { return modelPath_; }
    void setModelPath(const QString& path) { modelPath_ = path; }

Q_SIGNALS:
    void corpusLoaded();
    void corpusFailed(const QString& message);
    void corpusFileLoaded(const CorpusSource& source);  // a file, for the recent list
    void lessonStarted(const QString& title, const QString& summary);
    void modelDiscarded();
    void titleChanged();

private:
    void onCorpusLoaded(quint64 id, const LoadedCorpus& loaded);
    void onCorpusFailed(quint64 id, const QString& message, const CorpusSource& source);

    Parts p_;
    CorpusLoader* loader_;
    Ask ask_;
    Report report_;
    Status status_;
    LoadedCorpus corpus_;
    quint64 loadId_ = 0;
    quint64 translateRequest_ = 0;
    bool startWhenLoaded_ = false;
    QString lesson_;
    QString modelPath_;  // where the current model was saved or loaded from
};

}  // namespace attnlab
