#pragma once
// Diagnostics of a translation's attention (core/base/analysis/AttentionDiagnostics.h): a table with one row
// per head (kind, layer, head | entropy | diagonality | sink mass | coverage), each kind's summary
// first, every judged number coloured by its flag; the map of the selected row beside it; and under
// them, in plain language, what each raised flag means and what to try. It follows the Translate
// view's latest translation, the live probe's as training goes on, or whichever came last.
#include "views/View.h"
#include "widgets/HeatmapWidget.h"
#include "task/translate/TranslationTypes.h"

#include "base/analysis/AttentionDiagnostics.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableWidget;
class QTextBrowser;

namespace attnlab {

class DiagnosticsView : public QWidget, public View {
    Q_OBJECT

public:
    enum class Source { Latest, Translation, Probe };
    enum Column { KindColumn, LayerColumn, HeadColumn, EntropyColumn, DiagonalityColumn, SinkColumn, RowSpreadColumn, CoverageColumn };

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void runStarted() override;

    explicit DiagnosticsView(QWidget* parent = nullptr);

    void setTranslation(const Translation& translation);  // from the Translate view
    void setProbe(const ProbeResult& result);             // from the live probe
    void clear();
    Source source() const;
    void setSource(Source source);

    const Translation& shownTranslation() const { return shown_; }
    const ModelDiagnostics& diagnostics() const { return diagnostics_; }
    // The head shown in a table row: layer and head -1 for a kind's summary.
    const HeadDiagnostics* headAt(int tableRow) const;
    QTableWidget* table() const { return table_; }
    QTextBrowser* explanations() const { return explanations_; }
    HeatmapWidget* preview() const { return preview_; }
    QLabel* summary() const { return summary_; }

    static QString kindName(MapKind kind);       // "cross-attention", "encoder self-attention", ...
    static QString kindShortName(MapKind kind);  // "cross", "encoder", "decoder"
    static QString findingTitle(Finding finding);
    // tokens: the uncovered tokens, for Finding::Uncovered.
    static QString findingExplanation(Finding finding, const DiagnosticThresholds& thresholds,
                                      const QString& tokens = QString());
    static QString findingAdvice(Finding finding);

private:
    void refresh();
    void fillTable();
    void showRow(int tableRow);
    QString summaryHtml() const;
    QString explanationsHtml() const;

    Translation translation_;  // latest from the Translate view
    ProbeResult probe_;        // latest from the probe
    bool hasTranslation_ = false;
    bool hasProbe_ = false;
    bool latestIsProbe_ = false;
    Translation shown_;
    QString shownOrigin_;
    DiagnosticThresholds thresholds_;
    ModelDiagnostics diagnostics_;
    std::vector<const HeadDiagnostics*> rows_;  // table row -> diagnostics_ entry
    QString explanationsShown_;
    MapKind selectedKind_ = MapKind::Cross;  // the head shown in the preview, kept across updates
    int selectedLayer_ = -1;
    int selectedHead_ = -1;

    QComboBox* source_;
    QLabel* sentence_;
    QStackedWidget* stack_;
    QLabel* message_;
    QLabel* summary_;
    QTableWidget* table_;
    QLabel* previewCaption_;
    HeatmapWidget* preview_;
    QTextBrowser* explanations_;
};

}  // namespace attnlab
