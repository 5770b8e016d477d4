#pragma once
// What the tasks (ClassifierTask, ImageTask, TranslationTask) do alike: the window's hooks, the
// setup panel's page, the model file dialogs, the session's reports in the status bar and in
// message boxes, confirming a discard or a close (saving with a local event loop). Data loads run on
// a BackgroundJob (session/BackgroundJob.h; SessionTask::loadInBackground). The tasks keep their
// own titles and messages; the templates take any ModelSession (session/ModelSession.h).
#include "task/Task.h"  // TaskHooks

#include <QCoreApplication>
#include <QEventLoop>
#include <QMessageBox>
#include <QObject>
#include <QString>
#include <functional>


class QWidget;

namespace attnlab {

class ImportanceView;
class ModelSession;
class ViewNavigator;

class TaskSupport {
    Q_DECLARE_TR_FUNCTIONS(attnlab::TaskSupport)
public:
    // The setup panel in a frameless, resizable scroll area: the dock's page.
    static QWidget* scrollPage(QWidget* panel);
    // The open dialog for a model file; empty if cancelled, else lastDirectory follows the choice.
    static QString askOpenModelPath(QWidget* parent, const QString& title, QString& lastDirectory);
    // The save dialog, with .safetensors added; empty if cancelled.
    static QString askSaveModelPath(QWidget* parent, const QString& title, QString& lastDirectory,
                                    const QString& fileName);
    // "<file> — <architecture>", the window title's part for a model.
    static QString modelTitle(const QString& source, const QString& architecture);
    // The task's views (on the navigator under `task`): modelAvailable(available); cleared first if asked.
    static void setModelAvailable(ViewNavigator* navigator, const QString& task, bool available, bool clear = false);
    static void runStarted(ViewNavigator* navigator, const QString& task);
    // The Importance view on a task's session (its headStudy* signals): Measure calls
    // request(limit), which returns the request's id; only the latest request's progress, report
    // and failure reach the view; `changed` after a report (the window re-checks its exports).
    static void connectImportance(QObject* task, ImportanceView* view, ModelSession* session,
                                  std::function<quint64(int)> request, std::function<void()> changed);

    // The session's reports: status messages for the end of a run and a save, message boxes for failures.
    template <typename Session>
    static void connectReports(QObject* task, Session* s, const TaskHooks* hooks) {
        QObject::connect(s, &Session::trainingFinished, task,
                         [hooks](bool stopped) { hooks->status(finishedMessage(stopped), 8000); });
        QObject::connect(s, &Session::trainingFailed, task, [s, hooks](const QString& message) {
            reportTrainingFailed(*hooks, s->hasModel(), message);
        });
        QObject::connect(s, &Session::openFailed, task,
                         [hooks](const QString& message) { reportOpenFailed(*hooks, message); });
        QObject::connect(s, &Session::saveFailed, task,
                         [hooks](const QString& message) { reportSaveFailed(*hooks, message); });
        QObject::connect(s, &Session::saved, task, [hooks](const QString& path) { reportSaved(*hooks, path); });
    }

    // True if nothing would be lost, or the user chose to discard it.
    template <typename Session>
    static bool confirmDiscard(const Session* s, const TaskHooks& hooks, const QString& title, const QString& text) {
        if (!s->isBusy() && !(s->hasModel() && s->isModified())) return true;
        return hooks.ask(title, text, QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel) ==
               QMessageBox::Discard;
    }

    // Opens a model file after stopping the job; says so when the session refuses (a job still runs).
    template <typename Session>
    static void openModel(Session* s, const TaskHooks& hooks, const QString& path) {
        s->stop();
        if (!s->open(path)) reportBusy(hooks);
    }

    // Before the window closes: false if the user cancelled. A modified model: save it (askPath's
    // file), discard it or cancel; closing waits for the save (the worker answers after its batch).
    template <typename Session>
    static bool confirmClose(Session* s, const TaskHooks& hooks, const QString& title, const QString& text,
                             const std::function<QString()>& askPath) {
        if (!s->hasModel() || !s->isModified()) return true;
        const auto answer = hooks.ask(title, text, QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                      QMessageBox::Save);
        if (answer == QMessageBox::Cancel) return false;
        if (answer != QMessageBox::Save) return true;
        s->stop();
        const QString path = askPath();
        if (path.isEmpty()) return false;
        QEventLoop loop;
        bool ok = false;
        QObject::connect(s, &Session::saved, &loop, [&] {
            ok = true;
            loop.quit();
        });
        QObject::connect(s, &Session::saveFailed, &loop, [&] { loop.quit(); });
        s->save(path);
        loop.exec();
        return ok;
    }

private:
    static QString finishedMessage(bool stopped);
    static void reportTrainingFailed(const TaskHooks& hooks, bool hasModel, const QString& message);
    static void reportOpenFailed(const TaskHooks& hooks, const QString& message);
    static void reportSaveFailed(const TaskHooks& hooks, const QString& message);
    static void reportSaved(const TaskHooks& hooks, const QString& path);
    static void reportBusy(const TaskHooks& hooks);
};

}  // namespace attnlab
