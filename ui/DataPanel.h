#pragma once
// Where the corpus comes from: a built-in dataset (name, size, seed, maximum length) or a file, and
// what was loaded (pairs, skipped lines, vocabulary sizes).
#include "CorpusLoader.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attnlab {

class DataPanel : public QWidget {
    Q_OBJECT

public:
    explicit DataPanel(QWidget* parent = nullptr);

    CorpusSource datasetSource() const;  // what the built-in dataset controls describe
    void setDatasetSource(const CorpusSource& source);
    void setLoaded(const LoadedCorpus& corpus);
    void setLoading(const QString& name);
    void setLoadFailed();

    // A built-in dataset's name and description in the interface language; core's English text
    // where the table below knows no translation (an unknown or new dataset).
    static QString datasetLabel(const DatasetInfo& info);
    static QString datasetDescription(const DatasetInfo& info);

Q_SIGNALS:
    void generateRequested(const attnlab::CorpusSource& source);
    void openTsvRequested();
    void openParallelRequested();

private:
    void updateDescription();

    QComboBox* dataset_;
    QLabel* description_;
    QSpinBox* size_;
    QSpinBox* seed_;
    QSpinBox* maxLength_;
    QPushButton* generate_;
    QLabel* name_;
    QLabel* pairs_;
    QLabel* skipped_;
    QLabel* sourceVocabulary_;
    QLabel* targetVocabulary_;
    QLabel* lengths_;
    QLabel* warnings_;
};

}  // namespace attnlab
