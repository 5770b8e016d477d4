// The translation task's interpretability views wired to the worker: the Heads view's live head
// ablation, the Importance view's measurement and the Projector's PCA, each answered by request id
// (a newer request drops an older answer). Split from TranslationTask.cpp, which wires the rest.
#include "task/translate/TranslationTask.h"

#include "task/translate/TranslationSession.h"
#include "task/translate/TranslationRun.h"
#include "views/heads/HeadsView.h"
#include "views/heads/ImportanceView.h"
#include "views/heads/ProjectorView.h"
#include "views/translate/TranslateView.h"

namespace attnlab {

void TranslationTask::connectInterpretability() {
    connect(session_, &TranslationSession::ablationTranslated, this, [this](quint64 id, const AblatedTranslation& a) {
        if (id != ablationRequest_) return;  // a newer request is on its way
        headsView_->setAblatedTranslation(a);
        Q_EMIT actionsChanged();
    });
    connect(headsView_, &HeadsView::ablationRequested, this, [this](const QString& sentence) {
        if (!session_->hasModel()) return;
        ablationRequest_ = session_->translateAblated(sentence, translateView_->beam(), headsView_->switchedOff());
    });
    connect(projectorView_, &ProjectorView::projectRequested, this, [this](int layer, int sentences) {
        projectionRequest_ = session_->projectStates(runner_->corpus().corpus, layer, sentences);
    });
    connect(session_, &TranslationSession::statesProjected, this,
            [this](quint64 id, const StateProjection& projection, const QString& corpus) {
                if (id != projectionRequest_) return;
                projectorView_->setProjection(projection, corpus);
                Q_EMIT actionsChanged();
            });
    connect(session_, &TranslationSession::projectionFailed, this, [this](quint64 id, const QString& message) {
        if (id == projectionRequest_) projectorView_->setFailed(message);
    });
    connect(importanceView_, &ImportanceView::measureRequested, this, [this](int limit) {
        headsRequest_ = session_->measureHeads(runner_->corpus().corpus, limit);
    });
    connect(session_, &TranslationSession::headsProgress, this, [this](quint64 id, int done, int total) {
        if (id == headsRequest_) importanceView_->setProgress(done, total);
    });
    connect(session_, &TranslationSession::headsMeasured, this,
            [this](quint64 id, const HeadImportanceReport& report, const QString& corpus) {
                if (id != headsRequest_) return;
                importanceView_->setReport(report.study, corpus);
                Q_EMIT actionsChanged();
            });
    connect(session_, &TranslationSession::headsFailed, this, [this](quint64 id, const QString& message) {
        if (id == headsRequest_) importanceView_->setFailed(message);
    });
}

}  // namespace attnlab
