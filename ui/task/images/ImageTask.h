#pragma once
// The Images task (id "images"): its setup panel (ImageSetupPanel), its views (Image, Curves;
// registered with the navigator under the task's id), its model on a worker thread (ImageSession: a
// ViT or a captioner) and its lessons (ImageLessons.h). The window knows it only through the Task
// interface.
#include "task/images/ImageSession.h"
#include "task/images/ImageSetupPanel.h"  // ImageDataChoice
#include "task/SessionTask.h"
#include <QObject>
#include <memory>

class QThread;
class QWidget;

namespace attnlab {

class ImageCurvesView;
class ImageExplainView;
class ImageHeadsView;
class ImportanceView;
class ImageView;
class ViewNavigator;

class ImageTask : public SessionTask {
    Q_OBJECT
public:
    explicit ImageTask(const TaskContext& context);
    ~ImageTask() override;

    // Task (the rest: SessionTask)
    QString id() const override;
    QString title() const override;
    QString summary() const override;
    QWidget* setupPage() const override { return page_; }
    QString defaultView() const override { return QStringLiteral("image"); }
    QString titleText() const override;
    QList<LessonCard> lessons() const override;
    bool startLesson(const QString& id) override;
    bool startLessonFile(const LessonFile& lesson) override;
    bool setupAsLesson(LessonFile& lesson, QString* why) const override;
    // A dropped file: a model, a folder of class folders, a caption TSV, or an image to look at.
    void openFiles(const QStringList& paths) override;

    ImageSetupPanel* panel() const { return panel_; }
    ImageSession* session() const { return session_; }
    ImageView* imageView() const { return image_; }
    ImageCurvesView* curvesView() const { return curves_; }
    ImportanceView* importanceView() const { return importance_; }
    ImageExplainView* explainView() const { return explain_; }
    ImageHeadsView* headsView() const { return heads_; }

    bool hasData() const override { return images_ || captions_; }
    std::shared_ptr<const ImageDataset> images() const { return images_; }
    std::shared_ptr<const CaptionDataset> captions() const { return captions_; }
    QString dataReport() const { return report_; }  // what an image folder skipped
    void loadData() override;  // from the panel's choice, off the GUI thread

private:
    // SessionTask
    Words words() const override;
    QString modelFileName() const override;
    void startRun() override;

    void connectSession();
    void connectViews();
    void onState();
    void look();  // the image shown, by the model
    void chooseFile();

    ImageSession* session_;
    ImageSetupPanel* panel_;
    QWidget* page_;
    ImageView* image_;
    ImageCurvesView* curves_;
    ImportanceView* importance_;
    ImageExplainView* explain_;
    ImageHeadsView* heads_;
    Image explainedImage_;
    quint64 explainRequest_ = 0;
    std::shared_ptr<const ImageDataset> images_;
    std::shared_ptr<const ImageDataset> testImages_;
    std::shared_ptr<const CaptionDataset> captions_;
    ImageDataChoice loadedChoice_;
    QString report_;
    int snapshotEpoch_ = 0;
    quint64 lookRequest_ = 0;
    QString previousDataset_ = QStringLiteral("glyphs");
};

}  // namespace attnlab
