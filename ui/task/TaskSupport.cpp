#include "task/TaskSupport.h"
#include "session/ModelSession.h"
#include "views/ViewNavigator.h"
#include "views/View.h"
#include "views/heads/ImportanceView.h"
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QScrollArea>
#include <algorithm>
#include <memory>

namespace attnlab {

QWidget* TaskSupport::scrollPage(QWidget* panel) {
    // The page fits the dock's width and scrolls only down: a form row whose label and field do not
    // fit side by side puts the field under its label, and a list box shows what fits of its
    // choice (its list shows every entry in full).
    for (QFormLayout* form : panel->findChildren<QFormLayout*>()) form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    for (QComboBox* box : panel->findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        const int shown = box->minimumContentsLength();
        box->setMinimumContentsLength(shown > 0 ? std::min(shown, 10) : 10);
    }
    auto* area = new QScrollArea;
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

QString TaskSupport::askOpenModelPath(QWidget* parent, const QString& title, QString& lastDirectory) {
    const QString path =
        QFileDialog::getOpenFileName(parent, title, lastDirectory, tr("AttnLab models (*.safetensors)"));
    if (!path.isEmpty()) lastDirectory = QFileInfo(path).absolutePath();
    return path;
}

QString TaskSupport::askSaveModelPath(QWidget* parent, const QString& title, QString& lastDirectory,
                                      const QString& fileName) {
    QString path = QFileDialog::getSaveFileName(parent, title, QDir(lastDirectory).filePath(fileName),
                                                tr("AttnLab models (*.safetensors)"));
    if (path.isEmpty()) return path;
    if (!path.endsWith(QLatin1String(".safetensors"))) path += QLatin1String(".safetensors");
    lastDirectory = QFileInfo(path).absolutePath();
    return path;
}

QString TaskSupport::modelTitle(const QString& source, const QString& architecture) {
    return QStringLiteral("%1 — %2").arg(QFileInfo(source).fileName(), architecture);
}

void TaskSupport::setModelAvailable(ViewNavigator* navigator, const QString& task, bool available, bool clear) {
    for (View* v : navigator->viewsOf(task)) {
        if (clear) v->clearView();
        v->modelAvailable(available);
    }
}

void TaskSupport::connectImportance(QObject* task, ImportanceView* view, ModelSession* session,
                                    std::function<quint64(int)> request, std::function<void()> changed) {
    auto latest = std::make_shared<quint64>(0);
    QObject::connect(view, &ImportanceView::measureRequested, task,
                     [latest, request = std::move(request)](int limit) { *latest = request(limit); });
    QObject::connect(session, &ModelSession::headStudyProgress, task, [latest, view](quint64 id, int done, int total) {
        if (id == *latest) view->setProgress(done, total);
    });
    QObject::connect(session, &ModelSession::headStudyMeasured, task,
                     [latest, view, changed = std::move(changed)](quint64 id, const HeadStudyReport& report,
                                                                  const QString& data) {
                         if (id != *latest) return;
                         view->setReport(report, data);
                         if (changed) changed();
                     });
    QObject::connect(session, &ModelSession::requestFailed, task, [latest, view](quint64 id, const QString& message) {
        if (id == *latest) view->setFailed(message);
    });
}

void TaskSupport::runStarted(ViewNavigator* navigator, const QString& task) {
    for (View* v : navigator->viewsOf(task)) v->runStarted();
}

QString TaskSupport::finishedMessage(bool stopped) {
    return stopped ? tr("Training stopped; the model stays.") : tr("Training finished.");
}

void TaskSupport::reportTrainingFailed(const TaskHooks& hooks, bool hasModel, const QString& message) {
    hooks.reportError(tr("Training Failed"),
                      hasModel ? tr("%1\n\nThe model keeps its last good weights.").arg(message) : message);
}

void TaskSupport::reportOpenFailed(const TaskHooks& hooks, const QString& message) {
    hooks.reportError(tr("Cannot Open Model"), message);
}

void TaskSupport::reportSaveFailed(const TaskHooks& hooks, const QString& message) {
    hooks.reportError(tr("Cannot Save Model"), message);
}

void TaskSupport::reportSaved(const TaskHooks& hooks, const QString& path) {
    hooks.status(tr("Saved %1").arg(QFileInfo(path).fileName()), 8000);
}

void TaskSupport::reportBusy(const TaskHooks& hooks) {
    hooks.status(tr("Wait until the current job has stopped."), 5000);
}

}  // namespace attnlab
