#include "window/WindowSettings.h"

#include "base/ModelConfig.h"
#include "setup/DataPanel.h"
#include "setup/ModelSettingsWidget.h"
#include "setup/TrainingSettingsWidget.h"
#include "views/translate/ProbeView.h"
#include "window/RecentFiles.h"
#include "window/ViewNavigator.h"

#include <QMainWindow>
#include <QSettings>
#include <QStandardPaths>

namespace attnlab {

void WindowSettings::restore() {
    QSettings settings;
    window->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    recent->setEntries(settings.value(QStringLiteral("recentCorpora")).toStringList());
    lastDirectory = settings.value(QStringLiteral("lastDirectory"),
                                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                        .toString();

    DatasetOptions options;
    options.size = settings.value(QStringLiteral("data/size"), 2000).toUInt();
    options.seed = settings.value(QStringLiteral("data/seed"), 1).toULongLong();
    options.maxLen = settings.value(QStringLiteral("data/maxLen"), 0).toInt();
    data->setDatasetSource(CorpusSource::builtin(
        settings.value(QStringLiteral("data/dataset"), QStringLiteral("toy-en-zh")).toString(), options));

    const QString json = settings.value(QStringLiteral("model/config")).toString();
    if (!json.isEmpty()) {
        try {
            model->setConfig(modelConfigFromJson(json.toStdString()));
        } catch (...) {
            // A configuration from another version: keep the defaults.
        }
    }
    TrainingOptions o = training->options();
    o.learningRate = settings.value(QStringLiteral("training/learningRate"), o.learningRate).toDouble();
    o.batchSize = settings.value(QStringLiteral("training/batch"), o.batchSize).toInt();
    o.epochs = settings.value(QStringLiteral("training/epochs"), o.epochs).toInt();
    o.seed = settings.value(QStringLiteral("training/seed"), static_cast<qulonglong>(o.seed)).toULongLong();
    o.threads = settings.value(QStringLiteral("training/threads"), o.threads).toInt();
    o.validationFraction = settings.value(QStringLiteral("training/validation"), o.validationFraction).toDouble();
    o.clip = settings.value(QStringLiteral("training/clip"), o.clip).toDouble();
    o.teacherForcing = settings.value(QStringLiteral("training/teacherForcing"), o.teacherForcing).toDouble();
    training->setOptions(o);

    colormap = Colormap::fromName(settings.value(QStringLiteral("view/colormap")).toString()).value_or(ColormapId::Viridis);
    showNumbers = settings.value(QStringLiteral("view/numbers"), false).toBool();
    logScale = settings.value(QStringLiteral("view/logScale"), false).toBool();
    probe->setSentence(settings.value(QStringLiteral("probe/sentence")).toString());
    probe->setEveryBatches(settings.value(QStringLiteral("probe/every"), 5).toInt());
    if (!navigator->show(settings.value(QStringLiteral("view/name")).toString())) navigator->show(QStringLiteral("translate"));
}

void WindowSettings::save() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window->saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window->saveState());
    settings.setValue(QStringLiteral("recentCorpora"), recent->entries());
    settings.setValue(QStringLiteral("lastDirectory"), lastDirectory);
    const CorpusSource source = data->datasetSource();
    settings.setValue(QStringLiteral("data/dataset"), source.dataset);
    settings.setValue(QStringLiteral("data/size"), static_cast<qulonglong>(source.options.size));
    settings.setValue(QStringLiteral("data/seed"), static_cast<qulonglong>(source.options.seed));
    settings.setValue(QStringLiteral("data/maxLen"), source.options.maxLen);
    ModelConfig config = model->config();
    config.sourceVocab = config.targetVocab = 5;  // not part of the settings; keeps the JSON valid
    settings.setValue(QStringLiteral("model/config"), QString::fromStdString(toJson(config)));
    const TrainingOptions o = training->options();
    settings.setValue(QStringLiteral("training/learningRate"), o.learningRate);
    settings.setValue(QStringLiteral("training/batch"), o.batchSize);
    settings.setValue(QStringLiteral("training/epochs"), o.epochs);
    settings.setValue(QStringLiteral("training/seed"), static_cast<qulonglong>(o.seed));
    settings.setValue(QStringLiteral("training/threads"), o.threads);
    settings.setValue(QStringLiteral("training/validation"), o.validationFraction);
    settings.setValue(QStringLiteral("training/clip"), o.clip);
    settings.setValue(QStringLiteral("training/teacherForcing"), o.teacherForcing);
    settings.setValue(QStringLiteral("view/colormap"), Colormap::nameOf(colormap));
    settings.setValue(QStringLiteral("view/numbers"), showNumbers);
    settings.setValue(QStringLiteral("view/logScale"), logScale);
    settings.setValue(QStringLiteral("view/name"), navigator->currentName());
    settings.setValue(QStringLiteral("probe/sentence"), probe->sentence());
    settings.setValue(QStringLiteral("probe/every"), probe->everyBatches());
}

}  // namespace attnlab
