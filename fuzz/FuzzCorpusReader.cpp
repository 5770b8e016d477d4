// fuzz_corpus_reader: the TSV parser on the raw bytes. If the input holds a 0xFF
// byte (never valid UTF-8, so never part of a real corpus), the bytes before and
// after the first one also go through the two-file reader as source and target files.
#include <cstdint>
#include <string>

#include "FuzzCheck.h"
#include "FuzzScratch.h"
#include "base/translation/ParallelCorpus.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"

namespace {

using attnlab::ParallelCorpus;

using attnlab::fuzz::isWhitespaceAt;
using attnlab::fuzz::lastCodePoint;

// What every reader promises about a corpus it returns. A tab inside a sentence is
// only impossible in TSV: in a line of a two-file corpus it is white space like any other.
void checkCorpus(const ParallelCorpus& corpus, bool fromTsv) {
    FUZZ_CHECK(!corpus.pairs.empty());
    long previous = 0;
    for (const auto& pair : corpus.pairs) {
        FUZZ_CHECK(pair.line > previous);
        previous = pair.line;
        for (const std::string* side : {&pair.source, &pair.target}) {
            FUZZ_CHECK(!side->empty());
            FUZZ_CHECK(attnlab::findInvalidUtf8(*side) == std::string::npos);
            FUZZ_CHECK(side->find_first_of(std::string("\r\n\0", 3)) == std::string::npos);
            FUZZ_CHECK(!fromTsv || side->find('\t') == std::string::npos);
            FUZZ_CHECK(!isWhitespaceAt(*side, 0));                // trimmed
            FUZZ_CHECK(!isWhitespaceAt(*side, lastCodePoint(*side)));
        }
    }
    for (const auto& skipped : corpus.skipped) {
        FUZZ_CHECK(skipped.line > 0);
        FUZZ_CHECK(!skipped.reason.empty());
    }
}

// Writing the pairs back as TSV and reading that gives the same pairs.
void checkRoundTrip(const ParallelCorpus& corpus) {
    std::string tsv;
    for (const auto& pair : corpus.pairs) tsv += pair.source + "\t" + pair.target + "\n";
    const ParallelCorpus again = attnlab::parseTsvCorpus(tsv, "round-trip.tsv");
    FUZZ_CHECK(again.pairs.size() == corpus.pairs.size());
    FUZZ_CHECK(again.skipped.empty());
    for (std::size_t i = 0; i < corpus.pairs.size(); ++i) {
        FUZZ_CHECK(again.pairs[i].source == corpus.pairs[i].source);
        FUZZ_CHECK(again.pairs[i].target == corpus.pairs[i].target);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = attnlab::fuzz::bytesOf(data, size);
    try {
        const ParallelCorpus corpus = attnlab::parseTsvCorpus(bytes, "fuzz.tsv");
        checkCorpus(corpus, true);
        checkRoundTrip(corpus);
    } catch (const attnlab::InputError& e) {
        FUZZ_CHECK(e.file() == "fuzz.tsv");
        FUZZ_CHECK(e.line() >= 0);
        FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);  // one line, as the CLI prints it
    }

    const std::size_t split = bytes.find('\xFF');
    if (split != std::string::npos) {
        static const attnlab::fuzz::ScratchDir scratch;
        const std::string source = scratch.write("train.src", bytes.substr(0, split));
        const std::string target = scratch.write("train.tgt", bytes.substr(split + 1));
        try {
            checkCorpus(attnlab::readParallelCorpus(source, target), false);
        } catch (const attnlab::InputError& e) {
            FUZZ_CHECK(e.file() == source || e.file() == target || e.file() == source + " + " + target);
            FUZZ_CHECK(e.line() >= 0);
            FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);
        }
    }
    return 0;
}
