#pragma once
// Two models on the same sentence, side by side, on one colour scale: e.g. dot against additive
// attention, or a GRU against a Transformer. Each side shows the main window's current model or a
// model file; files are read and translated on a background thread (a BackgroundJob per side), the
// current model through the TranslationSession (answered between batches), so the window never waits.
#include "views/View.h"
#include "widgets/AttentionPanel.h"

#include "base/AttentionMap.h"

#include <QWidget>

#include <array>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace attnlab {

class BackgroundJob;
class Seq2SeqModel;
class TranslationSession;

class CompareView : public QWidget, public View {
    Q_OBJECT

public:
    static constexpr int kSides = 2;

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    void applyShowNumbers(bool on) override;
    bool exportsFigure() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    explicit CompareView(TranslationSession* controller, QWidget* parent = nullptr);
    ~CompareView() override;

    QString sentence() const;
    void setSentence(const QString& sentence);
    // Side 0 (left) or 1 (right) shows the main window's current model...
    void useCurrentModel(int side);
    // ...or the model in a file, read on a background thread (modelLoaded or a failure follows).
    void loadModelFile(int side, const QString& path);
    bool usesCurrentModel(int side) const;
    QString modelFile(int side) const;
    QString modelDescription(int side) const;

    // Translates the sentence with both models; compared() follows when both have answered.
    void compare();
    bool isBusy() const;
    const Translation& translation(int side) const;
    AttentionPanel* panel(int side) const;
    // The top of the colour scale both heatmaps share: 1, or the larger of the two maps' maxima.
    double sharedMaximum() const { return sharedMaximum_; }
    void setUnitScale(bool on);

    // Both maps side by side in one figure (PNG at scale, SVG or PDF).
    bool exportFigure(const QString& path, QString* error = nullptr, double scale = 1.0) const;
    bool hasFigure() const;

public Q_SLOTS:
    void setColormap(attnlab::ColormapId id);
    void setShowNumbers(bool on);
    // The current model changed (trained, reset or loaded): refresh the sides that show it.
    void currentModelChanged();

Q_SIGNALS:
    void modelLoaded(int side);
    void compared();
    void loadFailed(int side, const QString& message);  // a model file could not be read

private:
    struct Side {
        QComboBox* source = nullptr;
        QLabel* info = nullptr;
        QLabel* output = nullptr;
        AttentionPanel* panel = nullptr;
        std::shared_ptr<const Seq2SeqModel> model;  // a file's model; null for the current model
        QString path;
        Translation translation;
        quint64 request = 0;   // the controller's id of the pending current-model translation
        quint64 generation = 0;  // bumped per request: late answers of older requests are dropped
        bool pending = false;
    };

    void onSourceChosen(int side);
    void finishSide(int side, quint64 generation, const Translation* translation, const QString& error);
    void updateInfo(int side);
    void updateScale();
    void updateBusy();

    TranslationSession* controller_;
    std::array<Side, kSides> sides_;
    QLineEdit* input_;
    QPushButton* compareButton_;
    QCheckBox* unitScale_;
    QLabel* status_;
    double sharedMaximum_ = 1.0;
    // Each side's file jobs (read a model, translate with it); the newest of a side wins, and a
    // closed view waits at most a few seconds for them.
    std::array<std::unique_ptr<BackgroundJob>, kSides> jobs_;
};

}  // namespace attnlab
