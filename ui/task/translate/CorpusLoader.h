#pragma once
// Reads a corpus file or generates a built-in dataset off the GUI thread (a 500 MB file takes
// seconds), and counts its vocabularies. Only the newest request is answered: a load superseded by
// another is dropped by id, as the user no longer waits for it.
#include "base/translation/ParallelCorpus.h"
#include "base/translation/Datasets.h"
#include "session/BackgroundJob.h"

#include <QObject>
#include <QString>

#include <memory>

namespace attnlab {

struct CorpusSource {
    enum class Kind { Builtin, Tsv, Parallel };
    Kind kind = Kind::Builtin;
    QString dataset;         // Builtin
    DatasetOptions options;  // Builtin
    QString path;            // Tsv, or the source side of Parallel
    QString targetPath;      // Parallel
    // Tsv or Parallel: gold word links in the Pharaoh format (one line per corpus line), or empty.
    // With them, training reports the alignment error rate of the attention (AER).
    QString alignmentPath;
    // How the text becomes tokens: for the counts here and for training on this corpus.
    TokenizerOptions tokenizer;

    // With the dataset's own tokenizer options (DatasetInfo::tokenizer); files get the defaults.
    static CorpusSource builtin(const QString& name, const DatasetOptions& options);
    static CorpusSource tsv(const QString& path);
    static CorpusSource parallel(const QString& sourcePath, const QString& targetPath);
    QString displayName() const;  // "toy-en-zh", "pairs.tsv", "train.en + train.fr"
    bool isFile() const { return kind != Kind::Builtin; }
};

struct LoadedCorpus {
    std::shared_ptr<const ParallelCorpus> corpus;
    CorpusSource source;
    std::size_t sourceVocabulary = 0;  // distinct tokens (source.tokenizer), specials excluded
    std::size_t targetVocabulary = 0;
    double meanSourceTokens = 0.0;
    double meanTargetTokens = 0.0;
    std::size_t longestSource = 0;
    std::size_t longestTarget = 0;
};

class CorpusLoader : public QObject {
    Q_OBJECT

public:
    explicit CorpusLoader(QObject* parent = nullptr);
    ~CorpusLoader() override;  // drops the results to come; waits (bounded) for loads still running

    quint64 load(const CorpusSource& source);
    bool isLoading() const { return job_.isPending(); }  // the newest load has not answered yet

    // The work itself, synchronous; throws InputError/ConfigError like the core does.
    static LoadedCorpus loadNow(const CorpusSource& source);

Q_SIGNALS:
    void loaded(quint64 id, const attnlab::LoadedCorpus& corpus);
    // message names the file and line at fault.
    void failed(quint64 id, const QString& message, const attnlab::CorpusSource& source);

private:
    // Reading is bounded by the file size limit; a load still running after a minute is abandoned.
    BackgroundJob job_{this, QStringLiteral("attnlab-corpus"), 60000};
};

}  // namespace attnlab
