#pragma once
// The pairs of a corpus for a QTableView: one row per pair, source and target columns, the file
// line (or the pair number of a generated dataset) as the row header.
#include "base/translation/ParallelCorpus.h"

#include <QAbstractTableModel>

#include <memory>

namespace attnlab {

class CorpusTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { SourceColumn, TargetColumn, ColumnCount };

    explicit CorpusTableModel(QObject* parent = nullptr);

    void setCorpus(std::shared_ptr<const ParallelCorpus> corpus);
    const std::shared_ptr<const ParallelCorpus>& corpus() const { return corpus_; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ParallelCorpus> corpus_;
};

}  // namespace attnlab
