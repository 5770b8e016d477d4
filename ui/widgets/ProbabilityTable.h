#pragma once
// A classifier's answer as a table: the most probable classes first, each with its probability as a
// bar (Classify view, Image view). The table is as tall as its rows, so the view scrolls, not it.
#include <QCoreApplication>
#include <QStringList>
#include <vector>

class QTableWidget;

namespace attnlab {

class ProbabilityTable {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ProbabilityTable)
public:
    // An empty table with the columns Class and Probability, not editable.
    static QTableWidget* make();
    // The `maxRows` most probable of `probabilities` (in names' order; a class without a name shows
    // its index), and the table's height set to fit them.
    static void show(QTableWidget* table, const std::vector<double>& probabilities, const QStringList& names,
                     int maxRows);
    // probabilities[index], or 0 outside them.
    static double of(const std::vector<double>& probabilities, int index);
};

}  // namespace attnlab
