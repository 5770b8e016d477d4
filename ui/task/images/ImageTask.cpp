#include "task/images/ImageTask.h"
#include "base/TaskIds.h"
#include "task/LessonSetup.h"
#include "task/TaskSupport.h"
#include "views/heads/ImportanceView.h"
#include "views/ViewNavigator.h"
#include "task/images/ImageLessons.h"
#include "session/SettingNames.h"
#include "views/image/ImageCurvesView.h"
#include "views/image/ImageExplainView.h"
#include "views/image/ImageHeadsView.h"
#include "views/image/ImageView.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageDatasets.h"
#include "base/vision/ImageFiles.h"
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalBlocker>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kFolderSide = 32;   // an image folder is read as RGB at this size (a ViT with 4x4 patches: 8x8)
constexpr int kCaptionSide = 48;  // a caption list's images (the captioner's default input)
constexpr int kShownSkips = 3;

struct Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ImageTask)
};

// Runs on the loader thread: the data of a choice, or the reason there is none.
struct LoadOutcome {
    std::shared_ptr<ImageDataset> images, test;
    std::shared_ptr<CaptionDataset> captions;
    QString error;
    QString report;
};

void keepFirst(ImageDataset& d, std::size_t n) {
    if (d.images.size() <= n) return;
    d.images.resize(n);
    if (d.labels.size() > n) d.labels.resize(n);
    if (d.boxes.size() > n) d.boxes.resize(n);
}

LoadOutcome makeData(const ImageDataChoice& c) {
    LoadOutcome out;
    const auto size = static_cast<std::size_t>(std::max(1, c.size));
    try {
        if (c.dataset == QLatin1String("glyphs")) {
            out.images = std::make_shared<ImageDataset>(makeGlyphs(size, c.seed));
        } else if (c.dataset == QLatin1String("fashion-mnist")) {
            out.images = std::make_shared<ImageDataset>(readFashionMnist(true));
            keepFirst(*out.images, size);
            out.test = std::make_shared<ImageDataset>(readFashionMnist(false));
            keepFirst(*out.test, std::max<std::size_t>(100, size / 5));
        } else if (c.dataset == QLatin1String("folder")) {
            ImageFolderReport report;
            out.images = std::make_shared<ImageDataset>(
                readImageFolder(c.path.toStdString(), 3, kFolderSide, kFolderSide, &report));
            keepFirst(*out.images, size);
            if (!report.skipped.empty()) {
                QStringList files;
                for (std::size_t i = 0; i < report.skipped.size() && i < static_cast<std::size_t>(kShownSkips); ++i)
                    files << QStringLiteral("%1 (%2)").arg(QString::fromStdString(report.skipped[i].first),
                                                           QString::fromStdString(report.skipped[i].second));
                out.report = Tr::tr("skipped files (%1): %2")
                                 .arg(report.skipped.size())
                                 .arg(files.join(QStringLiteral("; ")));
                if (report.skipped.size() > static_cast<std::size_t>(kShownSkips)) out.report += QStringLiteral("; …");
            }
        } else if (c.dataset == QLatin1String("scenes")) {
            SceneOptions scenes;
            scenes.noise = c.noise;
            out.captions = std::make_shared<CaptionDataset>(makeScenes(size, c.seed, scenes));
        } else {
            out.captions =
                std::make_shared<CaptionDataset>(readCaptionTsv(c.path.toStdString(), 3, kCaptionSide, kCaptionSide));
        }
    } catch (const std::exception& e) {
        out = LoadOutcome();
        out.error = SettingNames::messageOf(e);
    }
    return out;
}

QString figure(double v) { return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("–"); }

std::vector<float> meanOverWords(const Captioning& c) {
    const std::size_t n = static_cast<std::size_t>(c.gridRows) * static_cast<std::size_t>(c.gridCols);
    std::vector<float> sum(n, 0.0f);
    for (const auto& row : c.attention)
        if (row.size() == n)
            for (std::size_t i = 0; i < n; ++i) sum[i] += row[i] / static_cast<float>(c.attention.size());
    return sum;
}

}  // namespace

ImageTask::ImageTask(const TaskContext& context)
    : SessionTask(context, new ImageSession, QStringLiteral("attnlab-images-data")),
      session_(static_cast<ImageSession*>(modelSession())) {
    panel_ = new ImageSetupPanel;
    page_ = TaskSupport::scrollPage(panel_);
    image_ = new ImageView;
    curves_ = new ImageCurvesView;
    importance_ = new ImportanceView(tr("images"));
    explain_ = new ImageExplainView;
    heads_ = new ImageHeadsView;
    const QString task = id();
    navigator()->addView(ViewGroup::Watch, QStringLiteral("image"), image_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("image-heads"), heads_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("image-curves"), curves_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("image-explain"), explain_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("image-importance"), importance_, task);
    TaskSupport::setModelAvailable(navigator(), task, false);
    connectSession();
    connectViews();
    onState();
}

ImageTask::~ImageTask() { shutdown(); }

void ImageTask::connectSession() {
    ImageSession* s = session_;
    connect(s, &ImageSession::stateChanged, this, &ImageTask::onState);
    connect(s, &ImageSession::modelReady, this, [this](const ImageModelInfo& info) {
        image_->setClasses(info.classes);
        importance_->setModelHasHeads(!info.isCaptioner());
        explain_->setModelIsClassifier(!info.isCaptioner());
        if (info.isCaptioner())
            heads_->setNoHeads(tr("A captioner has no self-attention heads: its words' attention over the image is in "
                                  "the Image view."));
        TaskSupport::setModelAvailable(navigator(), id(), true);
        if (!session_->isTraining()) {  // opened from a file: look at the image shown
            curves_->runStarted();
            look();
        }
        Q_EMIT titleChanged();
    });
    connect(s, &ImageSession::modelDiscarded, this, [this] {
        TaskSupport::setModelAvailable(navigator(), id(), false, true);
        Q_EMIT titleChanged();
    });
    connect(s, &ImageSession::classifierEpochFinished, this, [this](const ImageEpochMetrics& m) {
        curves_->addEpoch(m);
        snapshotEpoch_ = m.epoch;  // the worker probes right after
        QString text = tr("Epoch %1 of %2: accuracy %3")
                           .arg(m.epoch)
                           .arg(session_->model().epochsPlanned)
                           .arg(figure(m.accuracy));
        if (std::isfinite(m.rolloutOnBox))
            text += tr(", rollout on the mark %1 (uniform %2)").arg(figure(m.rolloutOnBox), figure(m.boxShare));
        panel_->setStatus(text);
        Q_EMIT titleChanged();
    });
    connect(s, &ImageSession::captionerEpochFinished, this, [this](const CaptionEpochMetrics& m) {
        curves_->addEpoch(m);
        snapshotEpoch_ = m.epoch;
        panel_->setStatus(tr("Epoch %1 of %2: BLEU %3, every object named %4")
                              .arg(m.epoch)
                              .arg(session_->model().epochsPlanned)
                              .arg(QString::number(m.bleu, 'f', 1), figure(m.objectsNamed)));
        Q_EMIT titleChanged();
    });
    TaskSupport::connectReports(this, s, &hooks());
    connect(s, &ImageSession::trainingFinished, this, [this] {
        look();
        // A run that ends while the Explain view is open (the lesson 'evidence') is explained at once.
        if (navigator()->currentName() == QLatin1String("image-explain") && session_->hasModel() &&
            explain_->explainButton()->isEnabled())
            explain_->explainButton()->click();
    });
    connect(s, &ImageSession::probedClassification, this, [this](const ImageClassification& c) {
        if (!session_->hasModel()) return;  // answered before a reset
        image_->setClassification(c);
        heads_->setClassification(image_->image(), c);
        if (snapshotEpoch_ > 0) curves_->addSnapshot(snapshotEpoch_, image_->image(), c.rollout, c.gridRows, c.gridCols);
        snapshotEpoch_ = 0;
    });
    connect(s, &ImageSession::probedCaption, this, [this](const Captioning& c) {
        if (!session_->hasModel()) return;  // answered before a reset
        image_->setCaptioning(c);
        explain_->setCaption(c.tokens);
        if (snapshotEpoch_ > 0)
            curves_->addSnapshot(snapshotEpoch_, image_->image(), meanOverWords(c), c.gridRows, c.gridCols);
        snapshotEpoch_ = 0;
    });
    connect(s, &ImageSession::classified, this, [this](quint64 id, const ImageClassification& c) {
        if (id == lookRequest_) {
            image_->setClassification(c);
            heads_->setClassification(image_->image(), c);
        }
    });
    connect(s, &ImageSession::captioned, this, [this](quint64 id, const Captioning& c) {
        if (id == lookRequest_) {
            image_->setCaptioning(c);
            explain_->setCaption(c.tokens);
        }
    });
    connect(s, &ImageSession::requestFailed, this, [this](quint64 id, const QString& message) {
        if (id == lookRequest_) image_->setFailed(message);
        if (id == explainRequest_) explain_->setFailed(message);
    });
    connect(s, &ImageSession::explained, this, [this](quint64 id, const ImageExplanation& e) {
        if (id != explainRequest_) return;
        explain_->setExplanation(explainedImage_, e);
        Q_EMIT actionsChanged();  // Export Image now has a figure
    });
}

void ImageTask::connectViews() {
    connect(session_, &ImageSession::classified, this, &ImageTask::actionsChanged);
    connect(session_, &ImageSession::captioned, this, &ImageTask::actionsChanged);
    connect(session_, &ImageSession::probedClassification, this, &ImageTask::actionsChanged);
    connect(session_, &ImageSession::probedCaption, this, &ImageTask::actionsChanged);
    connect(session_, &ImageSession::classifierEpochFinished, this, &ImageTask::actionsChanged);
    connect(session_, &ImageSession::captionerEpochFinished, this, &ImageTask::actionsChanged);
    TaskSupport::connectImportance(
        this, importance_, session_,
        [this](int limit) {
            return session_->measureHeads(limit, testImages_ && !testImages_->images.empty() ? testImages_ : images_);
        },
        [this] { Q_EMIT actionsChanged(); });
    connect(session_, &ImageSession::modelDiscarded, this, &ImageTask::actionsChanged);
    connect(panel_, &ImageSetupPanel::chooseFileRequested, this, &ImageTask::chooseFile);
    connect(panel_, &ImageSetupPanel::dataChanged, this, [this] {
        if (!panel_->data().needsPath()) previousDataset_ = panel_->data().dataset;
        loadData();
    });
    connect(image_, &ImageView::imageChosen, this, [this](const Image& image) {
        session_->setProbe(image);
        explain_->setImage(image, image_->imageName());
        look();
    });
    connect(explain_, &ImageExplainView::explainRequested, this, [this](const Image& image, int word) {
        explainedImage_ = image;
        const bool shown = image.pixels == image_->image().pixels;
        explainRequest_ = session_->explain(image, shown ? image_->box() : std::nullopt, word,
                                            shown ? image_->objects() : std::vector<SceneObject>{});
    });
}

void ImageTask::look() {
    if (!session_->hasModel() || image_->image().pixels.empty()) return;
    lookRequest_ = session_->look(image_->image());
}

void ImageTask::onState() {
    panel_->setState(session_->isBusy(), session_->isTraining(), session_->hasModel());
    sessionStateChanged();
}

void ImageTask::loadData() {
    const ImageDataChoice choice = panel_->data();
    if (choice.needsPath() && choice.path.isEmpty()) return;
    panel_->setStatus(tr("Making the images…"));
    loadInBackground<LoadOutcome>([choice] { return makeData(choice); }, [this, choice](LoadOutcome& outcome) {
        if (!outcome.images && !outcome.captions) {
            panel_->setStatus(QString());
            if (hasData()) {  // the panel shows the data that stays
                const QSignalBlocker quiet(panel_);
                panel_->setData(loadedChoice_);
            }
            hooks().reportError(tr("Cannot Open Images"), outcome.error);
            return false;
        }
        images_ = outcome.images;
        testImages_ = outcome.test;
        captions_ = outcome.captions;
        report_ = outcome.report;
        loadedChoice_ = choice;
        QString status;
        if (images_) {
            image_->setDataset(images_);
            status = tr("%1: %2 images in %3 classes.")
                         .arg(choice.describe())
                         .arg(images_->images.size())
                         .arg(images_->classes.size());
        } else {
            image_->setDataset(captions_);
            status = tr("%1: %2 captioned images.").arg(choice.describe()).arg(captions_->images.size());
        }
        if (!report_.isEmpty()) status += QLatin1Char(' ') + tr("Note: %1").arg(report_);
        panel_->setStatus(status);
        image_->selectDatasetImage(0);
        return true;
    });
}

SessionTask::Words ImageTask::words() const {
    Words w;
    w.discard = tr("The current image model and its unsaved training will be discarded.");
    w.trainTitle = tr("Train a New Image Model?");
    w.openTitle = tr("Open an Image Model?");
    w.openDialog = tr("Open Image Model");
    w.saveDialog = tr("Save Image Model");
    w.closeTitle = tr("Save the Image Model?");
    w.closeText = tr("The image model has unsaved training.");
    return w;
}

QString ImageTask::modelFileName() const {
    return session_->model().isCaptioner() ? QStringLiteral("captioner.safetensors") : QStringLiteral("vit.safetensors");
}

void ImageTask::startRun() {
    ImageTrainRequest request;
    request.options = panel_->options();
    if (captions_) {
        request.task = QString::fromLatin1(tasks::kCaption);
        request.captions = captions_;
        request.captioner = panel_->captionerConfig();
        if (!captions_->images.empty()) {
            request.captioner.channels = captions_->images.front().channels;
            request.captioner.imageSize = captions_->images.front().height;
        }
    } else {
        request.task = QString::fromLatin1(tasks::kImageClassify);
        request.images = images_;
        request.testImages = testImages_;
        request.vit = panel_->vitConfig();
        if (!images_->images.empty()) {
            request.vit.channels = images_->images.front().channels;
            request.vit.imageSize = images_->images.front().height;
        }
    }
    session_->setProbe(image_->image());
    if (!session_->train(request)) return;
    panel_->setStatus(tr("Building the model…"));
}

bool ImageTask::startLesson(const QString& id) {
    const LessonFile* file = findBuiltinLessonFile(id);
    if (file == nullptr || tasks::windowTaskOf(file->task) != tasks::kImages) return false;
    return startLessonFile(*file);
}

bool ImageTask::startLessonFile(const LessonFile& file) {
    if (tasks::windowTaskOf(file.task) != tasks::kImages) return false;
    ImageLesson l;
    try {
        l = imageLessonFromFile(file);
    } catch (const std::exception& e) {
        hooks().reportError(tr("Cannot Open Lesson"), QString::fromStdString(e.what()));
        return false;
    }
    const bool started = beginLesson(l, [this, &l] {
        ImageDataChoice data;
        data.dataset = l.dataset;
        data.path = l.path;
        data.size = l.images;
        data.seed = l.dataSeed;
        data.noise = l.sceneNoise;
        panel_->setVitConfig(l.vit);
        panel_->setCaptionerConfig(l.captioner);
        panel_->setOptions(l.options);
        panel_->setData(data);  // makes the data, then trains
    });
    if (started && !l.probeImage.isEmpty()) image_->openImageFile(l.probeImage);
    return started;
}

bool ImageTask::setupAsLesson(LessonFile& lesson, QString* why) const {
    const ImageDataChoice data = panel_->data();
    if (data.needsPath() && data.path.isEmpty()) {
        if (why != nullptr) *why = tr("Choose the data first: no folder or caption file is chosen.");
        return false;
    }
    const bool captions = data.isCaptions();
    lesson.task = captions ? tasks::kCaption : tasks::kImageClassify;
    if (data.needsPath()) {
        lesson.path = data.path.toStdString();
    } else {
        lesson.dataset = data.dataset.toStdString();
        lesson.dataSeed = data.seed;
        if (data.dataset == QLatin1String("scenes") && data.noise > 0) lesson.noise = data.noise;
    }
    lesson.size = static_cast<std::size_t>(data.size);
    lesson.model = captions ? toJson(panel_->captionerConfig()) : toJson(panel_->vitConfig());
    const VisionTrainingOptions options = panel_->options();
    lesson.training = lessonTrainingOf(options);
    lesson.seed = options.seed;
    const QString view = navigator()->taskOf(navigator()->currentName()) == id() ? navigator()->currentName() : defaultView();
    describeSavedSetup(lesson, tr("Images: %1").arg(data.describe()),
                       tr("A setup saved from AttnLab: say here what the class should look for."), view, page_);
    return true;
}

void ImageTask::chooseFile() {
    ImageDataChoice data = panel_->data();
    QString path;
    if (data.dataset == QLatin1String("folder"))
        path = QFileDialog::getExistingDirectory(windowWidget(), tr("Open an Image Folder (one folder per class)"),
                                                 lastDirectory());
    else
        path = QFileDialog::getOpenFileName(windowWidget(), tr("Open a Caption List"), lastDirectory(),
                                            tr("Image and caption, tab-separated (*.tsv *.txt);;All files (*)"));
    if (path.isEmpty()) {
        data.dataset = previousDataset_;
        data.path.clear();
    } else {
        lastDirectory() = QFileInfo(path).absolutePath();
        data.path = path;
    }
    panel_->setData(data);
}

void ImageTask::openFiles(const QStringList& paths) {
    if (paths.isEmpty()) return;
    const QString& path = paths.front();
    const QFileInfo info(path);
    if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
        openModel(path);
        return;
    }
    if (info.isDir() || info.suffix().compare(QLatin1String("tsv"), Qt::CaseInsensitive) == 0) {
        ImageDataChoice data = panel_->data();
        data.dataset = info.isDir() ? QStringLiteral("folder") : QStringLiteral("captions");
        data.path = path;
        panel_->setData(data);
        return;
    }
    navigator()->show(QStringLiteral("image"));
    image_->openImageFile(path);
}

QString ImageTask::titleText() const {
    if (session_->hasModel()) {
        const ImageModelInfo& m = session_->model();
        const QString arch =
            m.isCaptioner()
                ? tr("captioner, %1 attention").arg(QString::fromStdString(toString(m.captioner.attention)))
                : tr("ViT (%1 layers, %2 heads)").arg(m.vit.layers).arg(m.vit.heads);
        return TaskSupport::modelTitle(m.source, arch);
    }
    if (images_) return QString::fromStdString(images_->name);
    return captions_ ? QString::fromStdString(captions_->name) : tr("no images");
}

QString ImageTask::id() const { return QString::fromLatin1(tasks::kImages); }

QString ImageTask::title() const { return tr("Images"); }

QString ImageTask::summary() const {
    return tr("A vision Transformer classifies images and an image captioner describes them; both show where in "
              "the image they look.");
}

QList<LessonCard> ImageTask::lessons() const { return imageLessonCards(); }

}  // namespace attnlab
