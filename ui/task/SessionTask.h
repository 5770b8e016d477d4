#pragma once
// What the tasks with one model session each (ClassifierTask, ImageTask) do alike, written once:
// the Task members that only ask the session (hasModel, isModified, isBusy, open, save, close), a
// run that starts when it can (once the data has loaded, or once the job that runs has ended: a
// lesson started while a run winds down), the steps every lesson takes, and the data loads on a
// BackgroundJob of which only the newest one's result is used. A task says what it trains on
// (hasData, loadData, startRun) and its words (words(), in its own translation context).
#include "session/BackgroundJob.h"
#include "session/ModelSession.h"
#include "task/Task.h"

#include <functional>
#include <memory>

namespace attnlab {

class SessionTask : public Task {
    Q_OBJECT

public:
    ~SessionTask() override;

    // Task
    void activate() override;  // loads the data on first use
    ModelSession* modelSession() const override { return session_; }
    bool hasModel() const override { return session_->hasModel(); }
    bool isModified() const override { return session_->isModified(); }
    bool isBusy() const override { return session_->isBusy(); }
    void openModel(const QString& path) override;
    void openModelDialog() override;
    void saveModel() override { saveModelDialog(); }
    void saveModelAs() override { saveModelDialog(); }
    QString lesson() const override { return lesson_; }
    // Start trains a new model (train()), Stop ends the run after its batch, Reset discards the
    // model; these sessions do not pause.
    RunState runState() const override;
    void run(RunCommand command) override;
    bool confirmClose() override;
    void shutdown() override;

    void saveModelTo(const QString& path) { session_->save(path); }
    // A new model trained on the task's data, after asking to discard the current one: now, once
    // the data has loaded, or once the job that runs has ended.
    void train();
    bool isLoadingData() const { return load_.isPending(); }

protected:
    // The sentences that differ between tasks, translated in the task's own context.
    struct Words {
        QString discard;      // "The current classifier and its unsaved training will be discarded."
        QString trainTitle;   // "Train a New Classifier?"
        QString openTitle;    // asked before opening a model file: "Open a Classifier?"
        QString openDialog;   // the open dialog's title: "Open Classifier"
        QString saveDialog;   // the save dialog's title: "Save Classifier"
        QString closeTitle;   // "Save the Classifier?"
        QString closeText;    // "The classifier has unsaved training."
    };

    SessionTask(const TaskContext& context, ModelSession* session, const QString& loadThreadName);

    virtual Words words() const = 0;
    virtual QString modelFileName() const = 0;  // what the save dialog suggests
    virtual bool hasData() const = 0;
    virtual void loadData() = 0;  // from the setup panel's choice, through loadInBackground
    virtual void startRun() = 0;  // the session's train request (the data is there, nothing runs)

    // Asks before the model and its unsaved training are discarded; true if nothing is lost.
    bool confirmDiscard(const QString& title);
    // The steps every lesson takes: asks, stops and drops the model, remembers the lesson, applies
    // its settings (apply() sets the setup panel, whose data choice then loads), trains once the data
    // is there, opens the lesson's view and shows its card. False if the user kept the model.
    bool beginLesson(const LessonCard& card, const std::function<void()>& apply);
    // Call on every state change of the session: a run waiting for the job to end starts, and the
    // window's run controls follow (actionsChanged).
    void sessionStateChanged();

    // work() on the load thread returns an outcome; accept(outcome) on the GUI thread, for the newest
    // load only, keeps the data and says whether there was any (false: it reported why). Then the
    // task's dataReady and titleChanged follow, and a run waiting for the data starts.
    template <typename Outcome>
    void loadInBackground(std::function<Outcome()> work, std::function<bool(Outcome&)> accept) {
        load_.start([work] { return work(); },
                    [this, accept](Outcome outcome) mutable { loadEnded(accept(outcome)); });
    }

private:
    void loadEnded(bool ok);
    void saveModelDialog();
    QString askSavePath();

    ModelSession* session_;
    BackgroundJob load_;
    bool activated_ = false;
    bool trainWhenLoaded_ = false;
    bool trainWhenIdle_ = false;
    QString lesson_;
};

}  // namespace attnlab
