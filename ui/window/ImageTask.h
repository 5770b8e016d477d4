#pragma once
// The Images task in the main window (issue 17): its setup panel (ImageSetupPanel), its views (Image,
// Curves; registered with the navigator under the task id "images"), its model on a worker thread
// (ImageSession: a ViT or a captioner) and its lessons (ImageLessons.h). MainWindow creates one, puts
// panelPage() into the setup dock and shows it when the Task box says "images"; everything the task
// does is wired here, as ClassifierTask does for text classification.
#include "session/ImageSession.h"
#include "setup/ImageSetupPanel.h"  // ImageDataChoice
#include "window/TaskSupport.h"  // TaskHooks
#include <QObject>
#include <memory>

class QThread;
class QWidget;

namespace attnlab {

class ImageCurvesView;
class ImageView;
class ViewNavigator;

class ImageTask : public QObject {
    Q_OBJECT
public:
    static constexpr const char* kId = "images";

    using Hooks = TaskHooks;

    ImageTask(QWidget* window, ViewNavigator* navigator, Hooks hooks);
    ~ImageTask() override;

    QWidget* panelPage() const { return page_; }
    ImageSetupPanel* panel() const { return panel_; }
    ImageSession* session() const { return session_; }
    ImageView* imageView() const { return image_; }
    ImageCurvesView* curvesView() const { return curves_; }

    void activate();  // the task became the current one: makes the data on first use
    bool isLoadingData() const { return loader_ != nullptr; }
    bool hasData() const { return images_ || captions_; }
    std::shared_ptr<const ImageDataset> images() const { return images_; }
    std::shared_ptr<const CaptionDataset> captions() const { return captions_; }
    QString dataReport() const { return report_; }  // what an image folder skipped
    void loadData();  // from the panel's choice, off the GUI thread

    void train();
    bool startLesson(const QString& id);
    QString lesson() const { return lesson_; }
    void openModel(const QString& path);
    // A dropped file: a model, a folder of class folders, a caption TSV, or an image to look at.
    void openDropped(const QString& path);
    void saveModel(const QString& path);
    bool confirmClose();
    void shutdown();
    QString titleFor() const;

Q_SIGNALS:
    void dataReady();
    void lessonStarted(const QString& title, const QString& summary);
    void titleChanged();
    void viewsChanged();

private:
    void connectSession();
    void connectViews();
    bool confirmDiscard(const QString& title);
    void onState();
    void look();  // the image shown, by the model
    void openModelDialog();
    void saveModelDialog();
    QString askSavePath();
    void chooseFile();

    QWidget* window_;
    ViewNavigator* navigator_;
    Hooks hooks_;
    ImageSession* session_;
    ImageSetupPanel* panel_;
    QWidget* page_;
    ImageView* image_;
    ImageCurvesView* curves_;
    std::shared_ptr<const ImageDataset> images_;
    std::shared_ptr<const ImageDataset> testImages_;
    std::shared_ptr<const CaptionDataset> captions_;
    ImageDataChoice loadedChoice_;
    QString report_;
    QThread* loader_ = nullptr;
    quint64 loadGeneration_ = 0;
    bool trainWhenLoaded_ = false;
    bool trainWhenIdle_ = false;
    bool activated_ = false;
    int snapshotEpoch_ = 0;
    quint64 lookRequest_ = 0;
    QString lesson_;
    QString lastDirectory_;
    QString previousDataset_ = QStringLiteral("glyphs");
};

}  // namespace attnlab
