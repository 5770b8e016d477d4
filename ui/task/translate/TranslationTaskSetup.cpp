// The translation task's setup as it travels: lessons started from their files, the current setup
// saved as a lesson, and the settings kept between launches. Split from TranslationTask.cpp, which
// builds and wires the task.
#include "task/translate/TranslationTask.h"

#include "base/TaskIds.h"
#include "base/translation/ModelConfig.h"
#include "task/translate/Lessons.h"
#include "task/translate/DataPanel.h"
#include "task/translate/ModelSettingsWidget.h"
#include "task/translate/TrainingSettingsWidget.h"
#include "task/LessonSetup.h"
#include "task/translate/RecentFiles.h"
#include "task/translate/TranslationRun.h"
#include "views/ViewNavigator.h"
#include "views/translate/ProbeView.h"
#include "views/translate/TranslateView.h"

#include <QAction>
#include <QSettings>

namespace attnlab {

// ---- lessons ----------------------------------------------------------------------------------------

QList<LessonCard> TranslationTask::lessons() const { return translationLessonCards(); }

bool TranslationTask::startLesson(const QString& id) {
    if (findLesson(id).id.isEmpty()) return false;
    return runner_->startLesson(id);
}

bool TranslationTask::startLessonFile(const LessonFile& file) {
    if (file.task != tasks::kTranslate) return false;
    Lesson lesson;
    try {
        lesson = lessonFromFile(file);
    } catch (const std::exception& e) {
        hooks().reportError(tr("Cannot Open Lesson"), QString::fromStdString(e.what()));
        return false;
    }
    return runner_->startLesson(lesson);
}

bool TranslationTask::setupAsLesson(LessonFile& lesson, QString* why) const {
    // The corpus trained on (or about to be), else what the data panel describes.
    const CorpusSource source = runner_->corpus().corpus ? runner_->corpus().source : dataPanel_->datasetSource();
    if (source.kind == CorpusSource::Kind::Parallel) {
        if (why != nullptr)
            *why = tr("A lesson names one corpus file: two aligned files cannot be saved in a lesson (write them as one "
                      "TSV file first).");
        return false;
    }
    lesson.task = tasks::kTranslate;
    if (source.isFile()) {
        lesson.path = source.path.toStdString();
    } else {
        lesson.dataset = source.dataset.toStdString();
        lesson.size = source.options.size;
        lesson.dataSeed = source.options.seed;
        lesson.maxLength = source.options.maxLen;
    }
    ModelConfig config = modelSettings_->config();
    config.sourceVocab = config.targetVocab = 0;
    lesson.model = toJson(config);
    const TranslationTrainingOptions o = trainingSettings_->options();
    lesson.training = lessonTrainingOf(o);
    lesson.training.clip = o.clip;
    lesson.training.validationFraction = o.validationFraction;
    lesson.training.teacherForcing = o.teacherForcing;
    if (o.coveragePenalty > 0) lesson.training.coveragePenalty = o.coveragePenalty;
    if (o.guidedAlignment > 0) {
        lesson.training.guidedAlignment = o.guidedAlignment;
        if (o.alignmentLayer >= 0) {
            lesson.training.alignmentLayer = o.alignmentLayer;
            lesson.training.alignmentHead = o.alignmentHead;
        }
    }
    lesson.seed = o.seed;
    if (!probeView_->sentence().isEmpty()) lesson.probe["sentence"] = probeView_->sentence().toStdString();
    if (!translateView_->sentence().isEmpty()) lesson.probe["translate"] = translateView_->sentence().toStdString();
    if (probeView_->everyBatches() > 0) lesson.probeEveryBatches = probeView_->everyBatches();
    const QString view = navigator()->taskOf(navigator()->currentName()) == id() ? navigator()->currentName() : defaultView();
    describeSavedSetup(lesson, tr("Translation: %1").arg(source.displayName()),
                       tr("A setup saved from AttnLab: say here what the class should look for."), view, page_);
    return true;
}

// ---- settings -----------------------------------------------------------------------------------------

void TranslationTask::restoreSettings(QSettings& settings) {
    recent_->setEntries(settings.value(QStringLiteral("recentCorpora")).toStringList());
    DatasetOptions options;
    options.size = settings.value(QStringLiteral("data/size"), 2000).toUInt();
    options.seed = settings.value(QStringLiteral("data/seed"), 1).toULongLong();
    options.maxLen = settings.value(QStringLiteral("data/maxLen"), 0).toInt();
    dataPanel_->setDatasetSource(CorpusSource::builtin(
        settings.value(QStringLiteral("data/dataset"), QStringLiteral("toy-en-zh")).toString(), options));
    const QString json = settings.value(QStringLiteral("model/config")).toString();
    if (!json.isEmpty()) {
        try {
            modelSettings_->setConfig(modelConfigFromJson(json.toStdString()));
        } catch (...) {
            // A configuration from another version: keep the defaults.
        }
    }
    TranslationTrainingOptions o = trainingSettings_->options();
    o.learningRate = settings.value(QStringLiteral("training/learningRate"), o.learningRate).toDouble();
    o.batchSize = settings.value(QStringLiteral("training/batch"), o.batchSize).toInt();
    o.epochs = settings.value(QStringLiteral("training/epochs"), o.epochs).toInt();
    o.seed = settings.value(QStringLiteral("training/seed"), static_cast<qulonglong>(o.seed)).toULongLong();
    o.threads = settings.value(QStringLiteral("training/threads"), o.threads).toInt();
    o.validationFraction = settings.value(QStringLiteral("training/validation"), o.validationFraction).toDouble();
    o.clip = settings.value(QStringLiteral("training/clip"), o.clip).toDouble();
    o.teacherForcing = settings.value(QStringLiteral("training/teacherForcing"), o.teacherForcing).toDouble();
    o.coveragePenalty = settings.value(QStringLiteral("training/coveragePenalty"), o.coveragePenalty).toDouble();
    o.guidedAlignment = settings.value(QStringLiteral("training/guidedAlignment"), o.guidedAlignment).toDouble();
    trainingSettings_->setOptions(o);
    logScale_->setChecked(settings.value(QStringLiteral("view/logScale"), false).toBool());
    probeView_->setSentence(settings.value(QStringLiteral("probe/sentence")).toString());
    probeView_->setEveryBatches(settings.value(QStringLiteral("probe/every"), 5).toInt());
}

void TranslationTask::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("recentCorpora"), recent_->entries());
    const CorpusSource source = dataPanel_->datasetSource();
    settings.setValue(QStringLiteral("data/dataset"), source.dataset);
    settings.setValue(QStringLiteral("data/size"), static_cast<qulonglong>(source.options.size));
    settings.setValue(QStringLiteral("data/seed"), static_cast<qulonglong>(source.options.seed));
    settings.setValue(QStringLiteral("data/maxLen"), source.options.maxLen);
    ModelConfig config = modelSettings_->config();
    config.sourceVocab = config.targetVocab = 5;  // not part of the settings; keeps the JSON valid
    settings.setValue(QStringLiteral("model/config"), QString::fromStdString(toJson(config)));
    const TranslationTrainingOptions o = trainingSettings_->options();
    settings.setValue(QStringLiteral("training/learningRate"), o.learningRate);
    settings.setValue(QStringLiteral("training/batch"), o.batchSize);
    settings.setValue(QStringLiteral("training/epochs"), o.epochs);
    settings.setValue(QStringLiteral("training/seed"), static_cast<qulonglong>(o.seed));
    settings.setValue(QStringLiteral("training/threads"), o.threads);
    settings.setValue(QStringLiteral("training/validation"), o.validationFraction);
    settings.setValue(QStringLiteral("training/clip"), o.clip);
    settings.setValue(QStringLiteral("training/teacherForcing"), o.teacherForcing);
    settings.setValue(QStringLiteral("training/coveragePenalty"), o.coveragePenalty);
    settings.setValue(QStringLiteral("training/guidedAlignment"), o.guidedAlignment);
    settings.setValue(QStringLiteral("view/logScale"), logScale_->isChecked());
    settings.setValue(QStringLiteral("probe/sentence"), probeView_->sentence());
    settings.setValue(QStringLiteral("probe/every"), probeView_->everyBatches());
}

}  // namespace attnlab
