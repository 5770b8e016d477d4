#include "widgets/ProbabilityTable.h"
#include <QHeaderView>
#include <QProgressBar>
#include <QTableWidget>
#include <algorithm>
#include <numeric>

namespace attnlab {

QTableWidget* ProbabilityTable::make() {
    auto* table = new QTableWidget(0, 2);
    table->setHorizontalHeaderLabels({tr("Class"), tr("Probability")});
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return table;
}

void ProbabilityTable::show(QTableWidget* table, const std::vector<double>& probabilities, const QStringList& names,
                            int maxRows) {
    std::vector<int> order(probabilities.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return probabilities[static_cast<std::size_t>(a)] > probabilities[static_cast<std::size_t>(b)];
    });
    const int shown = std::min(static_cast<int>(order.size()), maxRows);
    table->setRowCount(shown);
    int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
    for (int r = 0; r < shown; ++r) {
        const int k = order[static_cast<std::size_t>(r)];
        const double pk = probabilities[static_cast<std::size_t>(k)];
        table->setItem(r, 0, new QTableWidgetItem(k < names.size() ? names[k] : QString::number(k)));
        auto* bar = new QProgressBar;
        bar->setRange(0, 1000);
        bar->setValue(static_cast<int>(pk * 1000 + 0.5));
        bar->setFormat(QString::number(pk, 'f', 3));
        table->setCellWidget(r, 1, bar);
        height += table->rowHeight(r);
    }
    table->setFixedHeight(height);
}

double ProbabilityTable::of(const std::vector<double>& probabilities, int index) {
    return index >= 0 && index < static_cast<int>(probabilities.size()) ? probabilities[static_cast<std::size_t>(index)]
                                                                        : 0.0;
}

}  // namespace attnlab
