#include "views/corpus/CorpusView.h"

#include "views/corpus/CorpusTableModel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace attnlab {

CorpusView::CorpusView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    search_ = new QLineEdit;
    search_->setPlaceholderText(tr("Filter pairs, e.g. a word"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Show only the pairs that contain this text on either side."));
    layout->addWidget(search_);
    model_ = new CorpusTableModel(this);
    filter_ = new QSortFilterProxyModel(this);
    filter_->setSourceModel(model_);
    filter_->setFilterKeyColumn(-1);
    filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_ = new QTableView;
    table_->setModel(filter_);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 10);
    table_->setToolTip(tr("Double-click a pair to translate its source sentence."));
    layout->addWidget(table_, 1);
    connect(search_, &QLineEdit::textChanged, filter_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = filter_->index(index.row(), CorpusTableModel::SourceColumn);
        Q_EMIT sentenceChosen(filter_->data(source).toString());
    });
}

void CorpusView::setCorpus(std::shared_ptr<const ParallelCorpus> corpus) { model_->setCorpus(std::move(corpus)); }

QString CorpusView::viewTitle() const { return tr("Corpus"); }

QString CorpusView::viewToolTip() const { return tr("The sentence pairs of the corpus."); }

}  // namespace attnlab
