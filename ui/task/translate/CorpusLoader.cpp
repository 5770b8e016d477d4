#include "task/translate/CorpusLoader.h"

#include "base/translation/Alignments.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"

#include <QFileInfo>

#include <algorithm>
#include <exception>
#include <unordered_set>

namespace attnlab {

namespace {

struct Outcome {
    LoadedCorpus corpus;
    QString error;
};

}  // namespace

CorpusSource CorpusSource::builtin(const QString& name, const DatasetOptions& options) {
    CorpusSource s;
    s.kind = Kind::Builtin;
    s.dataset = name;
    s.options = options;
    if (const DatasetInfo* info = findBuiltinDataset(name.toStdString())) s.tokenizer = info->tokenizer;
    return s;
}

CorpusSource CorpusSource::tsv(const QString& path) {
    CorpusSource s;
    s.kind = Kind::Tsv;
    s.path = path;
    return s;
}

CorpusSource CorpusSource::parallel(const QString& sourcePath, const QString& targetPath) {
    CorpusSource s;
    s.kind = Kind::Parallel;
    s.path = sourcePath;
    s.targetPath = targetPath;
    return s;
}

QString CorpusSource::displayName() const {
    switch (kind) {
    case Kind::Builtin: return dataset;
    case Kind::Tsv: return QFileInfo(path).fileName();
    case Kind::Parallel: return QFileInfo(path).fileName() + QStringLiteral(" + ") + QFileInfo(targetPath).fileName();
    }
    return {};
}

CorpusLoader::CorpusLoader(QObject* parent) : QObject(parent) {}

CorpusLoader::~CorpusLoader() = default;

LoadedCorpus CorpusLoader::loadNow(const CorpusSource& source) {
    LoadedCorpus result;
    result.source = source;
    ParallelCorpus corpus;
    switch (source.kind) {
    case CorpusSource::Kind::Builtin:
        corpus = generateDataset(source.dataset.toStdString(), source.options);
        break;
    case CorpusSource::Kind::Tsv:
        corpus = readTsvCorpus(source.path.toStdString());
        break;
    case CorpusSource::Kind::Parallel:
        corpus = readParallelCorpus(source.path.toStdString(), source.targetPath.toStdString());
        break;
    }
    if (source.isFile() && !source.alignmentPath.isEmpty())
        attachAlignments(corpus, source.alignmentPath.toStdString());  // InputError naming file and line
    // The same tokenization the trainer applies, so the counts match what the model will see.
    const Tokenizer tokenizer(source.tokenizer);
    std::unordered_set<std::string> sourceTypes, targetTypes;
    std::size_t sourceTokens = 0, targetTokens = 0;
    for (const SentencePair& pair : corpus.pairs) {
        const auto s = tokenizer.tokenize(pair.source);
        const auto t = tokenizer.tokenize(pair.target);
        sourceTypes.insert(s.begin(), s.end());
        targetTypes.insert(t.begin(), t.end());
        sourceTokens += s.size();
        targetTokens += t.size();
        result.longestSource = std::max(result.longestSource, s.size());
        result.longestTarget = std::max(result.longestTarget, t.size());
    }
    result.sourceVocabulary = sourceTypes.size();
    result.targetVocabulary = targetTypes.size();
    if (!corpus.pairs.empty()) {
        result.meanSourceTokens = static_cast<double>(sourceTokens) / static_cast<double>(corpus.pairs.size());
        result.meanTargetTokens = static_cast<double>(targetTokens) / static_cast<double>(corpus.pairs.size());
    }
    result.corpus = std::make_shared<const ParallelCorpus>(std::move(corpus));
    return result;
}

quint64 CorpusLoader::load(const CorpusSource& source) {
    return job_.start(
        [source] {
            Outcome outcome;
            try {
                outcome.corpus = loadNow(source);
            } catch (const std::exception& e) {
                outcome.error = QString::fromUtf8(e.what());
            } catch (...) {
                outcome.error = tr("%1: an unknown error occurred while reading").arg(source.displayName());
            }
            return outcome;
        },
        // Only the newest load's outcome arrives here (on this object's thread).
        [this, source](const Outcome& outcome) {
            const quint64 answered = job_.current();
            if (outcome.error.isEmpty()) {
                Q_EMIT loaded(answered, outcome.corpus);
            } else {
                Q_EMIT failed(answered, outcome.error, source);
            }
        });
}

}  // namespace attnlab
