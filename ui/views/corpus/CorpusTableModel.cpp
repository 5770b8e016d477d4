#include "views/corpus/CorpusTableModel.h"

#include <algorithm>
#include <climits>

namespace attnlab {

CorpusTableModel::CorpusTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CorpusTableModel::setCorpus(std::shared_ptr<const ParallelCorpus> corpus) {
    beginResetModel();
    corpus_ = std::move(corpus);
    endResetModel();
}

int CorpusTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !corpus_) return 0;
    return static_cast<int>(std::min<std::size_t>(corpus_->pairs.size(), INT_MAX));
}

int CorpusTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CorpusTableModel::data(const QModelIndex& index, int role) const {
    if (!corpus_ || !index.isValid() || index.row() >= rowCount()) return {};
    const SentencePair& pair = corpus_->pairs[static_cast<std::size_t>(index.row())];
    const std::string& text = index.column() == SourceColumn ? pair.source : pair.target;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case Qt::EditRole:
        return QString::fromStdString(text);
    default:
        return {};
    }
}

QVariant CorpusTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Horizontal) {
        if (section == SourceColumn) return tr("Source");
        if (section == TargetColumn) return tr("Target");
        return {};
    }
    if (!corpus_ || section < 0 || section >= rowCount()) return {};
    const long line = corpus_->pairs[static_cast<std::size_t>(section)].line;
    return line > 0 ? QVariant(static_cast<qlonglong>(line)) : QVariant(section + 1);
}

}  // namespace attnlab
