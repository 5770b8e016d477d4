#pragma once
// The Images task's explanation lab: does the attention explain the decision? For the image the
// Image view shows, a ViT's five maps of base/vision/ImageExplanation.h (rollout, gradient,
// gradient x input, integrated gradients, gradient-weighted rollout), or for a captioner one chosen
// word's attention beside the three gradient maps per grid cell, side by side over the image,
// each with its area over the deletion curve and, when the image's box is known (a glyph's mark),
// its mass in the box beside the box's share; Kendall's tau between every two methods; integrated
// gradients' completeness; and the deletion chart: the probability of the class as each method's
// patches are replaced by the image's mean colour, most important first, against random orders.
// Data: the view only asks (explainRequested); the task runs ImageClassifier::explain where the
// model lives and hands the ImageExplanation back through setExplanation.
#include "views/View.h"

#include "base/vision/ImageExplanation.h"
#include "render/ImageOverlay.h"

#include <QWidget>

#include <optional>
#include <vector>

class QChart;
class QComboBox;
class QLabel;
class QLineSeries;
class QPushButton;
class QTableWidget;
class QValueAxis;

namespace attnlab {

class ImageCanvas;

class ImageExplainView : public QWidget, public View {
    Q_OBJECT
public:
    explicit ImageExplainView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void runStarted() override { clearView(); }
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    bool exportsFigure() const override { return explanation_.has_value(); }
    // .png / .svg / .pdf: the five maps over the image, labelled; refuses .csv / .npy.
    bool exportView(const QString& path, double scale, QString* error) const override;

    // Whether the model is a ViT (its class is explained) or a captioner (one word of its caption).
    void setModelIsClassifier(bool classifier);
    // A captioner's caption of the image shown: the words to choose from.
    void setCaption(const std::vector<std::string>& words);
    QComboBox* wordChooser() const { return word_; }
    // The image to explain (the Image view's); a new one forgets the explanation shown.
    void setImage(const Image& image, const QString& name);
    void setExplanation(const Image& image, const ImageExplanation& e);
    void setFailed(const QString& message);
    void setBusy(bool busy);
    const ImageExplanation* explanation() const { return explanation_ ? &*explanation_ : nullptr; }

    static QString methodTitle(const std::string& key);
    static QString shortTitle(const std::string& key);  // the tau table's columns, the chart's legend
    QString statusText() const;
    QString completenessText() const;
    QPushButton* explainButton() const { return explain_; }
    QTableWidget* tauTable() const { return tau_; }
    QChart* deletionChart() const { return chart_; }
    const std::vector<ImageCanvas*>& canvases() const { return canvases_; }
    QLabel* figureLabel(std::size_t i) const { return figures_.at(i); }

Q_SIGNALS:
    void explainRequested(const attnlab::Image& image, int word);  // word -1 for a ViT

private:
    void updateButton();
    void redraw();
    void fillTau(const ImageExplanation& e);
    void fillChart(const ImageExplanation& e);
    void clearChart();
    void showStatus(const QString& text, bool error);

    bool available_ = false, classifier_ = true, busy_ = false;
    Image image_, explainedImage_;
    QString name_;
    std::optional<ImageExplanation> explanation_;
    OverlayStyle style_;

    QPushButton* explain_;
    QComboBox* word_;
    QLabel* status_;
    QLabel* header_;
    std::vector<ImageCanvas*> canvases_;
    std::vector<QLabel*> titles_, figures_;
    QLabel* boxNote_;
    QTableWidget* tau_;
    QLabel* completeness_;
    QChart* chart_;
    QValueAxis* x_;
    QValueAxis* y_;
    QWidget* result_;
};

}  // namespace attnlab
