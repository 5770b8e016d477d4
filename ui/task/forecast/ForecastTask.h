#pragma once
// The forecasting task (id "forecast"): its setup panel (ForecastSetupPanel), its views (Forecast,
// Lag profile, Curves, Heads; registered with the navigator under the task's id), its model on a
// worker thread (ForecastSession) and its lessons (ForecastLessons.h). The window knows it only
// through the Task interface.
#include "task/forecast/ForecastSession.h"
#include "task/forecast/ForecastSetupPanel.h"  // ForecastDataChoice
#include "task/SessionTask.h"
#include <QObject>
#include <memory>
#include <optional>

class QWidget;

namespace attnlab {

class ForecastCurvesView;
class ForecastHeadsView;
class ImportanceView;
class ForecastView;
class LagProfileView;

class ForecastTask : public SessionTask {
    Q_OBJECT
public:
    explicit ForecastTask(const TaskContext& context);
    ~ForecastTask() override;

    // Task (the rest: SessionTask)
    QString id() const override;
    QString title() const override;
    QString summary() const override;
    QWidget* setupPage() const override { return page_; }
    QString defaultView() const override { return QStringLiteral("forecast"); }
    QString titleText() const override;
    QList<LessonCard> lessons() const override;
    bool startLesson(const QString& id) override;
    bool startLessonFile(const LessonFile& lesson) override;
    bool setupAsLesson(LessonFile& lesson, QString* why) const override;
    // A dropped file: a .safetensors forecaster, or else a CSV series.
    void openFiles(const QStringList& paths) override;

    ForecastSetupPanel* panel() const { return panel_; }
    ForecastSession* session() const { return session_; }
    ForecastView* forecastView() const { return forecast_; }
    LagProfileView* lagProfileView() const { return lag_; }
    ForecastCurvesView* curvesView() const { return curves_; }
    ForecastHeadsView* headsView() const { return heads_; }
    ImportanceView* importanceView() const { return importance_; }

    bool hasData() const override { return series_ != nullptr; }
    std::shared_ptr<const Series> series() const { return series_; }
    void loadData() override;  // from the panel's choice, off the GUI thread
    // The held-out evaluation of an opened model, as the status line reports it (null until answered).
    const ForecastEvaluation* evaluation() const { return evaluation_ ? &*evaluation_ : nullptr; }

private:
    // SessionTask
    Words words() const override;
    QString modelFileName() const override { return QStringLiteral("forecaster.safetensors"); }
    void startRun() override;

    void connectSession();
    void connectViews();
    void onState();
    void chooseFile();
    void showForecast(const Forecast& f, long at, const std::vector<HeadId>& off);
    // The positions the Forecast view offers for a model of `config`: the held-out tail's origins.
    void updateRange(const ForecastConfig& config);
    int markedPeriod() const;  // the model's period, else the generated series' own
    void requestForecast();

    ForecastSession* session_;
    ForecastSetupPanel* panel_;
    QWidget* page_;
    ForecastView* forecast_;
    LagProfileView* lag_;
    ForecastCurvesView* curves_;
    ForecastHeadsView* heads_;
    ImportanceView* importance_;
    std::shared_ptr<const Series> series_;
    ForecastDataChoice loadedChoice_;
    ForecastConfig rangeConfig_;  // what the Forecast view's positions were computed for
    std::optional<ForecastEvaluation> evaluation_;
    quint64 forecastRequest_ = 0, evaluateRequest_ = 0;
    std::vector<HeadId> forecastOff_;  // the heads switched off for forecastRequest_
    QString previousDataset_ = QStringLiteral("seasonal");
};

}  // namespace attnlab
