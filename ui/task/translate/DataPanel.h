#pragma once
// Where the corpus comes from: a built-in dataset (name, size, seed, maximum length) or a file, and
// what was loaded (pairs, skipped lines, vocabulary sizes) with how it is split into tokens.
#include "task/translate/CorpusLoader.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attnlab {

class DataPanel : public QWidget {
    Q_OBJECT

public:
    explicit DataPanel(QWidget* parent = nullptr);

    // What the built-in dataset controls describe, with the dataset's own tokenizer options, or
    // the loaded corpus's if that is the same dataset (so a new seed keeps the user's choice).
    CorpusSource datasetSource() const;
    void setDatasetSource(const CorpusSource& source);
    void setLoaded(const LoadedCorpus& corpus);
    void setLoading(const QString& name);
    void setLoadFailed();
    // The loaded file corpus again, with gold links from a Pharaoh file (reloadRequested).
    void addAlignments(const QString& path);

    // A built-in dataset's name and description in the interface language; core's English text
    // where the table below knows no translation (an unknown or new dataset).
    static QString datasetLabel(const DatasetInfo& info);
    static QString datasetDescription(const DatasetInfo& info);

Q_SIGNALS:
    void generateRequested(const attnlab::CorpusSource& source);
    void openTsvRequested();
    void openParallelRequested();
    // The user changed how the loaded corpus is read (its tokenizer, or gold word links added
    // to a file corpus): `source` is it with the new choice.
    void reloadRequested(const attnlab::CorpusSource& source);

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
    QCheckBox* splitCjk_;
    QLabel* alignments_;
    QPushButton* openAlignments_;
    CorpusSource loadedSource_;
    bool hasLoaded_ = false;
};

}  // namespace attnlab
