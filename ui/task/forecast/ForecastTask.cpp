#include "task/forecast/ForecastTask.h"
#include <algorithm>
#include "base/TaskIds.h"
#include "task/forecast/ForecastLessons.h"
#include "session/SettingNames.h"
#include "task/LessonSetup.h"
#include "task/TaskSupport.h"
#include "views/heads/ImportanceView.h"
#include "views/ViewNavigator.h"
#include "views/forecast/ForecastCurvesView.h"
#include "views/forecast/ForecastHeadsView.h"
#include "views/forecast/ForecastView.h"
#include "views/forecast/LagProfileView.h"
#include <QFileDialog>
#include <QFileInfo>
#include <QSignalBlocker>
#include <cmath>

namespace attnlab {

namespace {

// Runs on the loader thread: the series of a data choice (with a file's columns), or the reason
// there is none.
struct LoadOutcome {
    std::shared_ptr<Series> series;
    QStringList columns;
    QString column, timestamp;
    QString error;
};

bool looksLikeTime(const std::string& name) {
    QString n = QString::fromStdString(name).trimmed().toLower();
    return n == QLatin1String("date") || n == QLatin1String("time") || n == QLatin1String("timestamp") ||
           n == QLatin1String("datetime") || n == QLatin1String("ds");
}

LoadOutcome makeSeries(const ForecastDataChoice& c) {
    LoadOutcome out;
    try {
        if (c.isFile()) {
            const std::string path = c.path.toStdString();
            const std::vector<std::string> columns = readCsvColumns(path);
            for (const std::string& name : columns) out.columns << QString::fromStdString(name);
            std::string timestamp = c.timestampColumn.toStdString();
            std::string column = c.column.toStdString();
            if (column.empty()) {
                // A file read for the first time: its last column, and a first column named like a
                // time as the timestamps.
                column = columns.back();
                if (timestamp.empty() && columns.size() >= 2 && looksLikeTime(columns.front()))
                    timestamp = columns.front();
            }
            if (timestamp == column) timestamp.clear();
            out.series = std::make_shared<Series>(readSeriesCsv(path, column, timestamp));
            out.column = QString::fromStdString(column);
            out.timestamp = QString::fromStdString(timestamp);
        } else {
            out.series = std::make_shared<Series>(generateSeries(c.generated()));
        }
    } catch (const std::exception& e) {
        out.series.reset();
        out.error = SettingNames::messageOf(e);
    }
    return out;
}

QString figure(double v) { return std::isfinite(v) ? QString::number(v, 'g', 3) : QStringLiteral("–"); }

}  // namespace

ForecastTask::ForecastTask(const TaskContext& context)
    : SessionTask(context, new ForecastSession, QStringLiteral("attnlab-forecast-data")),
      session_(static_cast<ForecastSession*>(modelSession())) {
    panel_ = new ForecastSetupPanel;
    page_ = TaskSupport::scrollPage(panel_);
    forecast_ = new ForecastView;
    lag_ = new LagProfileView;
    curves_ = new ForecastCurvesView;
    heads_ = new ForecastHeadsView;
    importance_ = new ImportanceView(tr("forecast windows"));
    const QString task = id();
    navigator()->addView(ViewGroup::Watch, QStringLiteral("forecast"), forecast_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("lag-profile"), lag_, task);
    navigator()->addView(ViewGroup::Watch, QStringLiteral("forecast-curves"), curves_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("forecast-heads"), heads_, task);
    navigator()->addView(ViewGroup::Explain, QStringLiteral("forecast-importance"), importance_, task);
    TaskSupport::setModelAvailable(navigator(), task, false);
    connectSession();
    connectViews();
    onState();
}

ForecastTask::~ForecastTask() { shutdown(); }

void ForecastTask::connectSession() {
    ForecastSession* s = session_;
    connect(s, &ForecastSession::stateChanged, this, &ForecastTask::onState);
    connect(s, &ForecastSession::modelReady, this, [this](const ForecastModelInfo& info) {
        importance_->setModelHasHeads(true);  // every forecaster is a Transformer
        heads_->setAblationMode(false);          // another model: every head on
        TaskSupport::setModelAvailable(navigator(), id(), true);
        updateRange(info.config);
        lag_->setShape(info.config.context, info.config.horizon, markedPeriod());
        if (!session_->isTraining()) {  // opened from a file: forecast the position shown, evaluate the tail
            curves_->runStarted();
            lag_->runStarted();
            lag_->setShape(info.config.context, info.config.horizon, markedPeriod());
            evaluation_.reset();
            if (series_) evaluateRequest_ = session_->evaluate(series_, panel_->options().tailFraction);
            requestForecast();
        }
        if (series_) session_->setProbe(series_, forecast_->position());
        Q_EMIT titleChanged();
    });
    connect(s, &ForecastSession::modelDiscarded, this, [this] {
        TaskSupport::setModelAvailable(navigator(), id(), false, true);
        evaluation_.reset();
        Q_EMIT titleChanged();
    });
    connect(s, &ForecastSession::epochFinished, this, [this](const ForecastEpochMetrics& m) {
        curves_->addEpoch(m);
        lag_->addEpoch(m);
        panel_->setStatus(tr("Epoch %1 of %2: MAE %3, seasonal naive %4 (MASE %5), period-mass ratio %6")
                              .arg(m.epoch)
                              .arg(session_->model().epochsPlanned)
                              .arg(figure(m.errors.mae), figure(m.seasonalNaiveMae), figure(m.errors.mase),
                                   QString::number(m.periodMassRatio, 'f', 2)));
        Q_EMIT titleChanged();
    });
    TaskSupport::connectReports(this, s, &hooks());
    connect(s, &ForecastSession::trainingFinished, this, [this] { requestForecast(); });
    connect(s, &ForecastSession::probed, this, [this](const Forecast& f, long at) {
        if (!session_->hasModel()) return;  // answered before a reset
        if (!heads_->switchedOff().empty()) return;  // the full model's; the views show the ablated one
        showForecast(f, at, {});
    });
    connect(s, &ForecastSession::forecasted, this, [this](quint64 id, const Forecast& f, long at) {
        if (id == forecastRequest_) showForecast(f, at, forecastOff_);
    });
    connect(s, &ForecastSession::evaluated, this, [this](quint64 id, const ForecastEvaluation& e) {
        if (id != evaluateRequest_) return;
        evaluation_ = e;
        panel_->setStatus(tr("Held-out tail (%1 windows): MAE %2, seasonal naive %3 (MASE %4), period-mass ratio %5")
                              .arg(e.windows)
                              .arg(figure(e.model.mae), figure(e.seasonalNaive.mae), figure(e.model.mase),
                                   QString::number(e.periodMass.ratio(), 'f', 2)));
    });
    connect(s, &ForecastSession::requestFailed, this, [this](quint64 id, const QString& message) {
        if (id == forecastRequest_) forecast_->setFailed(message);
        if (id == evaluateRequest_) panel_->setStatus(message);
    });
}

void ForecastTask::connectViews() {
    connect(session_, &ForecastSession::forecasted, this, &ForecastTask::actionsChanged);
    connect(session_, &ForecastSession::probed, this, &ForecastTask::actionsChanged);
    connect(session_, &ForecastSession::epochFinished, this, &ForecastTask::actionsChanged);
    connect(session_, &ForecastSession::modelDiscarded, this, &ForecastTask::actionsChanged);
    connect(heads_, &ForecastHeadsView::ablationChanged, this, &ForecastTask::requestForecast);
    TaskSupport::connectImportance(
        this, importance_, session_,
        [this](int limit) { return session_->measureHeads(series_, panel_->options().tailFraction, limit); },
        [this] { Q_EMIT actionsChanged(); });
    connect(panel_, &ForecastSetupPanel::chooseFileRequested, this, &ForecastTask::chooseFile);
    connect(panel_, &ForecastSetupPanel::dataChanged, this, [this] {
        if (!panel_->data().isFile()) previousDataset_ = panel_->data().dataset;
        loadData();
    });
    connect(forecast_, &ForecastView::positionChanged, this, [this](long at) {
        if (!series_) return;
        session_->setProbe(series_, at);
        requestForecast();
    });
}

void ForecastTask::onState() {
    panel_->setState(session_->isBusy(), session_->isTraining(), session_->hasModel());
    sessionStateChanged();
}

void ForecastTask::showForecast(const Forecast& f, long at, const std::vector<HeadId>& off) {
    std::vector<HeadId> sorted = off;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != heads_->switchedOff()) return;  // made for heads switched off before
    forecast_->setForecast(f, at);
    lag_->setForecast(f);
    heads_->setForecast(f, off);
}

int ForecastTask::markedPeriod() const {
    if (session_->hasModel() && session_->model().period > 0) return session_->model().period;
    if (!series_) return 0;
    return series_->truth.period > 0 ? series_->truth.period : series_->truth.lag;
}

void ForecastTask::updateRange(const ForecastConfig& config) {
    rangeConfig_ = config;
    long first = 0, last = -1;
    if (series_) {
        try {
            const SeriesSplit split = splitSeries(*series_, config.context, config.horizon, panel_->options().tailFraction);
            first = std::max<long>(split.trainEnd, config.context);
            last = static_cast<long>(series_->values.size()) - config.horizon;
        } catch (const std::exception&) {
            // Too short for this context and horizon: training says so; nothing to forecast here.
        }
    }
    forecast_->setSeries(series_, first, last, markedPeriod());
}

void ForecastTask::requestForecast() {
    if (!session_->hasModel() || !series_) return;
    forecastOff_ = heads_->switchedOff();
    forecastRequest_ = session_->forecastAt(series_, forecast_->position(), forecastOff_);
}

void ForecastTask::loadData() {
    const ForecastDataChoice choice = panel_->data();
    if (choice.isFile() && choice.path.isEmpty()) return;
    panel_->setStatus(tr("Making the series…"));
    loadInBackground<LoadOutcome>([choice] { return makeSeries(choice); }, [this, choice](LoadOutcome& outcome) {
        if (!outcome.series) {
            panel_->setStatus(QString());
            if (hasData()) {  // the panel shows the series that stays
                const QSignalBlocker quiet(panel_);
                panel_->setData(loadedChoice_);
            }
            hooks().reportError(tr("Cannot Open Series"), outcome.error);
            return false;
        }
        series_ = outcome.series;
        loadedChoice_ = choice;
        if (choice.isFile()) {
            panel_->setColumns(outcome.columns, outcome.column, outcome.timestamp);
            loadedChoice_.column = outcome.column;
            loadedChoice_.timestampColumn = outcome.timestamp;
        }
        QString status = tr("%1: %2 values.").arg(loadedChoice_.describe()).arg(series_->values.size());
        if (series_->truth.period > 0) status += QLatin1Char(' ') + tr("Period %1.").arg(series_->truth.period);
        if (series_->truth.lag > 0) status += QLatin1Char(' ') + tr("Lag %1.").arg(series_->truth.lag);
        panel_->setStatus(status);
        updateRange(session_->hasModel() ? session_->model().config : panel_->config());
        if (session_->hasModel()) {
            session_->setProbe(series_, forecast_->position());
            requestForecast();
        }
        return true;
    });
}

SessionTask::Words ForecastTask::words() const {
    Words w;
    w.discard = tr("The current forecaster and its unsaved training will be discarded.");
    w.trainTitle = tr("Train a New Forecaster?");
    w.openTitle = tr("Open a Forecaster?");
    w.openDialog = tr("Open Forecaster");
    w.saveDialog = tr("Save Forecaster");
    w.closeTitle = tr("Save the Forecaster?");
    w.closeText = tr("The forecaster has unsaved training.");
    return w;
}

void ForecastTask::startRun() {
    ForecastRequest request;
    request.series = series_;
    request.config = panel_->config();
    request.options = panel_->options();
    evaluation_.reset();
    updateRange(request.config);
    session_->setProbe(series_, forecast_->position());
    if (!session_->train(request)) return;
    panel_->setStatus(tr("Building the model…"));
}

bool ForecastTask::startLesson(const QString& id) {
    const LessonFile* file = findBuiltinLessonFile(id);
    if (file == nullptr || file->task != tasks::kForecast) return false;
    return startLessonFile(*file);
}

bool ForecastTask::setupAsLesson(LessonFile& lesson, QString* why) const {
    const ForecastDataChoice data = panel_->data();
    if (data.isFile() && data.path.isEmpty()) {
        if (why != nullptr) *why = tr("Choose the data first: no series file is chosen.");
        return false;
    }
    lesson.task = tasks::kForecast;
    if (data.isFile()) {
        lesson.path = data.path.toStdString();
    } else {
        lesson.dataset = data.dataset.toStdString();
        lesson.size = static_cast<std::size_t>(data.length);
        lesson.dataSeed = data.seed;
        lesson.period = data.period;
        lesson.lag = data.lag;
        lesson.noise = data.noise;
    }
    lesson.model = toJson(panel_->config());
    const ForecastTrainingOptions options = panel_->options();
    lesson.training = lessonTrainingOf(options);
    lesson.seed = options.seed;
    const QString view = navigator()->taskOf(navigator()->currentName()) == id() ? navigator()->currentName() : defaultView();
    describeSavedSetup(lesson, tr("Forecasting: %1").arg(data.describe()),
                       tr("A setup saved from AttnLab: say here what the class should look for."), view, setupPage());
    return true;
}

bool ForecastTask::startLessonFile(const LessonFile& file) {
    if (file.task != tasks::kForecast) return false;
    ForecastLesson l;
    try {
        l = forecastLessonFromFile(file);
    } catch (const std::exception& e) {
        hooks().reportError(tr("Cannot Open Lesson"), QString::fromStdString(e.what()));
        return false;
    }
    return beginLesson(l, [this, &l] {
        ForecastDataChoice data;
        data.dataset = l.path.isEmpty() ? QString::fromStdString(toString(l.series.kind)) : QStringLiteral("file");
        data.path = l.path;
        data.length = static_cast<int>(l.series.length);
        data.period = l.series.period;
        data.lag = l.series.lag;
        data.noise = l.series.noise;
        data.seed = l.series.seed;
        panel_->setConfig(l.config);
        panel_->setOptions(l.options);
        panel_->setData(data);  // makes the series, then trains
    });
}

void ForecastTask::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(windowWidget(), tr("Open a Time Series"), lastDirectory(),
                                                      tr("Comma-separated values with a header (*.csv *.txt);;All files (*)"));
    ForecastDataChoice data = panel_->data();
    if (path.isEmpty()) {
        data.dataset = previousDataset_;
        data.path.clear();
    } else {
        lastDirectory() = QFileInfo(path).absolutePath();
        data.dataset = QStringLiteral("file");
        data.path = path;
        data.column.clear();
        data.timestampColumn.clear();
    }
    panel_->setData(data);
}

void ForecastTask::openFiles(const QStringList& paths) {
    if (paths.isEmpty()) return;
    const QString& path = paths.front();
    if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
        openModel(path);
        return;
    }
    ForecastDataChoice data = panel_->data();
    data.dataset = QStringLiteral("file");
    data.path = path;
    data.column.clear();
    data.timestampColumn.clear();
    panel_->setData(data);
}

QString ForecastTask::titleText() const {
    if (session_->hasModel()) {
        const ForecastModelInfo& m = session_->model();
        return TaskSupport::modelTitle(
            m.source, tr("Transformer forecaster (context %1, horizon %2)").arg(m.config.context).arg(m.config.horizon));
    }
    return series_ ? QString::fromStdString(series_->name) : tr("no series");
}

QString ForecastTask::id() const { return QString::fromLatin1(tasks::kForecast); }

QString ForecastTask::title() const { return tr("Forecasting"); }

QString ForecastTask::summary() const {
    return tr("A Transformer forecasts a time series from its recent past; its cross-attention shows how far back each "
              "forecast step looks.");
}

QList<LessonCard> ForecastTask::lessons() const { return forecastLessonCards(); }

}  // namespace attnlab
