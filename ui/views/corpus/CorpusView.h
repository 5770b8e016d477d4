#pragma once
// The Corpus view: the pairs being trained on, filterable; double-clicking a pair asks for its source
// sentence to be translated.
#include "views/View.h"

#include "base/translation/ParallelCorpus.h"

#include <QWidget>

#include <memory>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace attnlab {

class CorpusTableModel;

class CorpusView : public QWidget, public View {
    Q_OBJECT

public:
    explicit CorpusView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;

    void setCorpus(std::shared_ptr<const ParallelCorpus> corpus);
    CorpusTableModel* table() const { return model_; }

Q_SIGNALS:
    void sentenceChosen(const QString& sentence);

private:
    QLineEdit* search_;
    CorpusTableModel* model_;
    QSortFilterProxyModel* filter_;
    QTableView* table_;
};

}  // namespace attnlab
