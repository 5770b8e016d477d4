#include <iostream>
#include <map>

#include "Commands.h"
#include "base/TaskIds.h"

namespace attnlab::cli {

namespace {

const char* kOverview = R"(attnlab-cli - train small attention models and inspect their attention

Usage: attnlab-cli COMMAND [OPTIONS]

Commands:
  datasets     list the built-in datasets, or write one to a TSV file
  inspect      read a corpus and report pairs, skipped lines, vocabularies, lengths
  train        train a GRU or Transformer model and save it (.safetensors)
  translate    translate sentences with a trained model, optionally with attention as JSON
  render       draw a model's attention for a sentence (PNG, SVG, PDF, CSV, NPY)
  experiment   run a teaching experiment (bottleneck, needle, faithfulness, complexity)
  export       write the model's PyTorch package (attnlab.py, train.py) into a directory
  classify     label texts with a trained classifier (train --task classify), with its attention
  explain      attention beside gradient, grad x input, integrated gradients and leave-one-out
  look         what a vision model (train --task image-classify|caption) makes of an image

Options:
  --help       show help (also: attnlab-cli COMMAND --help)
  --version    print the version and git revision

Exit codes: 0 ok, 1 internal failure, 2 usage error, 3 bad input data,
4 bad model file, 130 interrupted (the model is saved first).
)";

const std::map<std::string, const char*> kCommandHelp = {
    {"datasets", R"(Usage: attnlab-cli datasets
       attnlab-cli datasets --write NAME --out FILE.tsv [--size N] [--seed S]
                            [--max-len N] [--alignments FILE [--split-cjk|--no-split-cjk]]

Without options, lists the built-in datasets. With --write, generates one.

  --write NAME        dataset to generate: copy, reverse, sort, dates, toy-en-fr, toy-en-zh;
                      or a classification set: sentiment, topic, needle (text<TAB>label);
                      or an image set, written as a folder DIR: glyphs (DIR/CLASS/00001.png
                      and boxes.tsv), scenes (images/, captions.tsv, objects.tsv), fashion-mnist
                      (the first --size images of --split train|test, default all of train,
                      DIR/CLASS/*.png)
  --length N          needle's words per text (default 50, 5..200)
  --out FILE          output TSV (source<TAB>target per line); written atomically
  --size N            number of pairs or images (default 2000; glyphs 5000, scenes 4000)
  --seed S            random seed (default 1); the same seed gives the same file
  --max-len N         maximum source length in tokens (default per dataset, up to 200)
  --alignments FILE   also write gold alignments, one line of "i-j" links per pair,
                      indexing the tokens the dataset trains on (toy-en-zh: Chinese words)
  --split-cjk         index Chinese/Japanese/Korean characters instead (--no-split-cjk: words)
)"},
    {"inspect", R"(Usage: attnlab-cli inspect (--corpus FILE.tsv | --src FILE --tgt FILE | --dataset NAME | --gettext LANG|FILE)
                           [--size N] [--data-seed S] [--max-len N] [--no-lowercase]
                           [--no-split-punct] [--split-cjk|--no-split-cjk]
                           [--min-freq N] [--max-vocab N] [--alignments FILE]

With --gettext FILE.mo|FILE.po: the message pairs one catalogue gives and what it skipped.
With --task classify (--corpus F.tsv | --dataset NAME, as train --task classify): texts, the
count per label, blank lines, warnings, vocabulary, a length histogram, units.
With --task image-classify: an image folder (--images DIR, DIR/CLASS/*.png|*.jpg, read as
--channels 1|3 at --image-size N, default 1 and 32; files that cannot be decoded are listed as
skipped), MNIST's IDX files (--idx IMAGES LABELS, plain or .gz), Debian's dataset-fashion-mnist
(--dataset fashion-mnist [--split train|test]) or the generated glyphs (--dataset glyphs [--size N]
[--data-seed S]; default 5000 images): images, their size, the count per class, the mean
pixel (0-1), has_boxes.
With --task caption: a caption list (--captions F.tsv, lines image<TAB>caption, image paths
relative to the TSV, several lines per image allowed; --channels 1|3, --image-size N, default 3
and 48) or the generated scenes (--dataset scenes [--size N, default 4000] [--data-seed S]): images, captions,
vocabulary, the longest caption, has_boxes.
Otherwise reads a corpus the way train does and prints JSON: pairs, skipped lines with reasons,
warnings, vocabulary sizes, a histogram of sentence lengths (in tokens) and the
tokenizer options used.
  --size N --data-seed S --max-len N   options for --dataset (defaults 2000, 1, per dataset)
  --alignments FILE    check gold word links for the corpus file (Pharaoh format, as for train)
  tokenizer switches as for train
)"},
    {"train", R"(Usage: attnlab-cli train (--corpus FILE.tsv | --src FILE --tgt FILE | --dataset NAME)
                         --arch gru|transformer --out MODEL.safetensors [options]

  --task T             what the model learns: @TASKS@
                       (default translate; the other tasks' data and flags are below)
Data:
  --corpus FILE        TSV corpus (source<TAB>target)
  --src F --tgt F      two line-aligned files
  --gettext LANG       English -> LANG message pairs from this machine's GNU gettext
                       catalogues (--locale-dir DIR, default /usr/share/locale)
  --dataset NAME       a built-in dataset (see: attnlab-cli datasets)
  --size N --data-seed S --max-len N   options for --dataset (defaults 2000, 1, per dataset)
  --alignments FILE    gold word links for a corpus file, in the Pharaoh format fast_align
                       and GIZA++ write: one line per corpus line, "i-j" (sure) or "i?j"
                       (possible) over space-separated words from 0; the epochs' "aer" then
                       measures the attention against them, with "align_precision" and
                       "align_recall" (Och & Ney: possible links count for precision only)
  --val-fraction F     share held out for validation (default 0.1)
  --min-freq N         drop tokens seen fewer times (default 1)
  --no-lowercase, --no-split-punct      tokenizer switches
  --split-cjk, --no-split-cjk           Chinese/Japanese/Korean one token per character, or
                       space-separated words kept whole. Default: per character, except
                       for a dataset written in words (toy-en-zh). The model keeps the choice.
Model:
  --arch A             gru or transformer
  --attention K        none, dot, general, scaled-dot, additive, local-m, local-p (GRU; default additive)
  --hidden N           hidden size / d_model (default 128)
  --layers N           layers (default 1 for GRU, 2 for Transformer)
  --bidirectional, --no-bidirectional
                       GRU encoder reading both ways (default on: with it the attention
                       points at the right words far more often; docs/defaults.md)
  --query Q            after or before: the GRU decoder's attention asks with the state
                       after reading the previous word (Luong) or before it (Bahdanau).
                       Default after: its maps matched the gold word links best
  --heads N            attention heads (Transformer, default 4)
  --ff N               feed-forward size (Transformer, default 512)
  --window D           local attention half-width (default 3): a GRU's local-m/local-p,
                       a Transformer's local and strided patterns
  --attention-pattern P  full, local, strided, chunked or linear (Transformer self-attention;
                       default full; cross-attention stays full). local: keys within D of
                       the query (the decoder: the D before it); strided: that band and every
                       s-th key from the query (Child et al. 2019); chunked: its chunk of C
                       keys and the mean key/value of every other chunk (the decoder: earlier
                       ones); linear: phi(q).phi(k), phi = elu + 1, no softmax (O(N))
  --chunk C            the chunk size (chunked) or stride s (strided); default 0 =
                       ceil(sqrt(max length))
  --dropout F          dropout (default 0.1)
  --dropout-on P       embeddings, attention or both (GRU). Default embeddings: dropping
                       attention weights too blurred the maps without gaining accuracy
Training:
  --epochs N (10)  --batch N (32)  --lr F (0.001)  --clip F (1.0)
  --teacher-forcing F (1.0)  --seed N (1)  --threads N (1)

Prints one JSON object per epoch on stdout; a progress bar on stderr when it is a
terminal. The model is saved atomically after every epoch and at the end. Ctrl-C
finishes the current batch, saves, and exits 130.

Text classification: attnlab-cli train --task classify (--corpus FILE.tsv | --dataset NAME)
                         --arch gru|transformer --out MODEL.safetensors [options]
  --corpus FILE.tsv    text<TAB>label per line (two or more classes)
  --dataset NAME       sentiment, topic or needle (--size N, --data-seed S, --length N for needle);
                       langid: this machine's gettext translations labelled by language
                       (--languages de,fr,... or all; default 12 common ones; --size N per
                       language, default 2000; --locale-dir DIR, default /usr/share/locale)
  --units U            words (default) or characters (default for langid)
  --attention P        pooling: additive (default), dot, scaled-dot, none (last state), mean
  --hops R             attention rows (Lin et al. 2017; default 1)   --penalty F  ||AA^T - I||^2 weight
  --hidden N (64)  --embedding N  --attention-size N  --no-bidirectional  --dropout F (0.1)
  --max-len N (256)  --epochs N (10)  --batch N (32)  --lr F (0.002)  --clip F  --seed N
  --arch transformer   a [CLS] token and encoder layers: --layers N (2) --heads N (4) --ff N (256);
                       its attention is each layer's self-attention and the [CLS] rollout;
                       --attention-pattern P [--window W (3)] [--chunk C (0 = ceil(sqrt(max
                       length + 1)))] as for translation, not causal. [CLS] is position 0, so
                       under local, strided or chunked its row and column see only what the
                       pattern allows (local: the first W words; the rest through the layers)
  Each epoch's JSON: epoch, train_loss, val_loss, val_accuracy, val_macro_f1,
  attention_entropy, rationale_mass (built-in datasets: mean attention on the deciding
  words, beside uniform_rationale_mass), pairs_per_sec (texts), seconds.

Images: attnlab-cli train --task image-classify (--images DIR | --idx IMAGES LABELS |
                         --dataset fashion-mnist|glyphs) --arch vit --out MODEL.safetensors
  data as for inspect --task image-classify (--channels, --image-size, --size, --data-seed);
  Fashion-MNIST trains on its 60,000 training images and tests on its 10,000 test images,
  the others hold --val-fraction out. A vision Transformer: P x P patches, [CLS], positions,
  pre-norm encoder layers (GELU), a linear head on [CLS].
  --patch P (4)  --hidden N (64)  --heads N (4)  --layers N (3)  --ff N (4 x hidden)
  --positions learned|sinusoidal (learned)  --dropout F (0: off)
  --attention-pattern P [--window W (3)] [--chunk C (0 = ceil(sqrt(1 + patches)))] as for
  translation, not causal, over [CLS] then the patches row-major: [CLS] is position 0, so
  under local, strided or chunked its row and column see only what the pattern allows
  --epochs N (8)  --batch N (32)  --lr F (0.001)  --clip F (1.0)  --seed N  --threads N
  --lr-schedule constant|cosine   the learning rate kept, or decayed to 0 along a cosine
  Each epoch's JSON: epoch, train_loss, val_loss, val_accuracy, pairs_per_sec and
  images_per_sec (training images per second), seconds; with boxes (glyphs):
  rollout_on_box (the [CLS] rollout's mass on the mark) beside box_share (uniform's).

Captions: attnlab-cli train --task caption (--captions FILE.tsv | --dataset scenes)
                         --arch cnn-gru --out MODEL.safetensors
  A CNN's (S/8) x (S/8) grid of features and a GRU decoder that attends over the cells.
  --attention additive|dot (additive)  --doubly-stochastic L (0: off; Xu et al.'s
  L * sum over cells of (1 - sum over words of alpha)^2)  --hidden N (128)  --embedding N (64)
  --features N (64)  --max-len N (16 words)  --epochs N (10)  --lr F (0.003)  --batch N (32)
  Each epoch's JSON: epoch, train_loss, val_loss, val_bleu (0-100), val_exact, pairs_per_sec,
  seconds; with objects (scenes): objects_named (held-out images whose caption names every
  object, "red disk") and peak_in_box (shape words whose attention peak is in that object).
)"},
    {"look", R"(Usage: attnlab-cli look --model MODEL.safetensors [--json] [--beam K] IMAGE

What a vision model makes of one image (PNG or JPEG, converted to the model's channels and
size). A vision Transformer prints its label, the top probabilities and where the rollout
peaks; with --json:
{"label", "probabilities": {"class": p, ...}, "image_size": [h, w], "grid": [rows, cols],
 "attention": {"encoder": [layer][head][1 + rows*cols][1 + rows*cols]},
 "rollout": [rows*cols], "cls_rows": [layer][rows*cols]}
(token 0 is [CLS], the patches follow row-major; the rollout is [CLS]'s row over the patches,
Abnar & Zuidema's: heads averaged, identity added, rows renormalised, layers multiplied; it sums
to 1). A captioner prints its caption and where each word looked; with --json:
{"caption_tokens": [...], "image_size", "grid", "attention": {"cross": [one row of rows*cols
weights per caption token]}, "log_probability"}.
  --beam K    beam search for a captioner (default 1 = greedy)
)"},
    {"classify", R"(Usage: attnlab-cli classify --model MODEL.safetensors [--json] TEXT...

Labels each TEXT (or each line of standard input) with a classifier trained by
`train --task classify`. Plain output: the label and its probability. With --json, one
object per text:
{"tokens": [...], "label": "...", "probabilities": {"label": p, ...},
 "attention": {"pooling": [[...] one row over tokens per hop, each summing to 1]}}
(no "pooling" for --attention none or mean). A Transformer's tokens start with [CLS] and
its attention is {"encoder": [layer][head][token][token], "rollout": [... one per word after
[CLS], summing to 1]} (Abnar & Zuidema: heads averaged, identity added, rows renormalised,
layers multiplied). A translation model is refused (exit 4).
)"},
    {"explain", R"(Usage: attnlab-cli explain --model MODEL.safetensors [--json] [--class LABEL] [--steps N] TEXT
       attnlab-cli explain --model TRANSLATION.safetensors --output-token I [--json] [--steps N] SENTENCE

Is attention an explanation? For one TEXT and a class (default: the predicted one),
one number per token from each method:
  attention              the pooling weights (mean over hops)
  gradient               L2 norm of d logit / d embedding
  grad_x_input           (d logit / d embedding) . embedding
  integrated_gradients   zero-embedding baseline, N steps (default 64, trapezoid rule)
  leave_one_out          p(class | text) - p(class | text without the word)
and Kendall's tau and Spearman's rho between the attention and each method (the
magnitudes of the gradient methods). ig_completeness compares the attributions' sum with
logit(text) - logit(baseline). --json prints {"tokens", "label", "attention", "gradient",
"grad_x_input", "integrated_gradients", "leave_one_out", "kendall_tau", "spearman",
"ig_completeness"}.

With a translation model, --output-token I explains output token I (0 = the first) of the
greedy translation over the source tokens ("</s>" included): the attention is its
cross-attention row (a Transformer's last layer, heads averaged), the gradients are of that
token's logit with the earlier outputs fed in, leave-one-out drops one source token (never
"</s>"). The JSON adds "output_tokens" and "output_token"; "label" is the token.
)"},
    {"translate", R"(Usage: attnlab-cli translate --model MODEL.safetensors [--beam K] [--max-output N] [--json] SENTENCE...
       attnlab-cli translate --model MODEL.safetensors --sample [--temperature T] [--top-k K]
                             [--top-p P] [--seed S] [--samples N] [--json] SENTENCE...

Translates each sentence. With --json, prints one object per sentence:
{"source_tokens": [...], "output_tokens": [...], "log_probability": x,
 "attention": {"cross": [[[[...]]]], ...}}
with each kind indexed [layer][head][target][source] (index 0 is the first layer and head,
which render's --layer 1 and --head 1 name).
  --beam K         beam width (default 1 = greedy)
  --max-output N   longest output in tokens (default: source length * 2 + 10)

With --sample, each step draws the next token instead of searching: from the model's
distribution at temperature T, cut to the K most probable tokens, then to the smallest set
whose probability reaches P (nucleus sampling), renormalised. The same seed draws the same
sample on every run; --temperature 0.0001 or --top-k 1 give the greedy translation. Prints one
line per sample. With --json, the object's keys above are the first sample's, and it adds
"sampling": {"temperature", "top_k", "top_p", "seed"} and "samples": [{"seed",
"output_tokens", "text", "log_probability" (the model's, at temperature 1), "steps":
[{"candidates": [{"token", "probability", "kept"}], "kept_count", "kept_mass", "chosen",
"chosen_probability"}], "attention"}]: per step the 10 most probable tokens, their
probability after temperature and whether they survived the cut; step i used attention row i.
  --sample         sample instead of beam search (not with --beam above 1)
  --temperature T  above 0 (default 1; below 1 sharpens, above 1 flattens)
  --top-k K        keep the K most probable tokens (default 0 = all)
  --top-p P        keep the smallest set reaching probability P, 0 < P <= 1 (default 1 = all)
  --seed S         seed of the draws, 0 to 4294967295 (default 0)
  --samples N      N samples side by side, seeds S, S+1, ... (default 1, at most 100)
)"},
    {"export", R"(Usage: attnlab-cli export --model MODEL.safetensors --pytorch DIR

Writes DIR/attnlab.py (the model in PyTorch: networks, tokenizer, vocabularies, decoding,
its own safetensors reader and writer; needs only python3-torch) and DIR/train.py
(fine-tuning or --from-scratch training on one or several processes, saving an AttnLab
checkpoint). DIR is created if needed; existing files are replaced atomically. The model
is checked first (a bad model file exits 4 and writes nothing). See docs/pytorch.md.
)"},
    {"render", R"(Usage: attnlab-cli render --model MODEL --sentence TEXT --out FILE.(png|svg|pdf|csv|npy)
                          [--kind cross|encoder|decoder] [--layer L] [--head H|all]
                          [--colormap viridis|magma|cividis|bone|grey] [--scale S]
                          [--beam K] [--numbers]

Translates the sentence and draws the attention the model used, with the same renderer
as the GUI. Rows are output tokens; columns are source tokens (cross), source tokens
again (encoder: rows are source tokens too) or the decoder's inputs (decoder). Works
without a display.
  --kind K         cross (default), encoder or decoder self-attention (Transformer only)
  --layer L        layer, 1 to the model's layers (default: the last layer)
  --head H|all     head, 1 to the model's heads (default 1); all draws every head of the layer
                   as a grid (.png, .svg or .pdf only)
  --colormap NAME  viridis (default), magma, cividis, bone or grey
  --scale S        PNG pixels per logical pixel, 0.1 to 16 (default 1)
  --beam K         beam width used to translate (default 1 = greedy)
  --numbers        write each weight in its cell when the cells are large enough
The output format follows the extension of --out; CSV has the column tokens as its
header row, .npy is a float32 matrix [rows, columns].

Images: attnlab-cli render --model VISION-MODEL --image IMAGE --out FILE.(png|svg|pdf)
  The image with the attention overlaid. A vision Transformer: --rollout (default), --layer L
  ([CLS]'s row, heads averaged) or --layer L --head H (both from 1, as for a sentence). A
  captioner: --token all (default: one overlay per word, as in the captioning papers) or
  --token I (word I alone, from 0); --beam K.
  --opacity F (0.6)  --nearest (crisp patches; default smoothed)  --colormap NAME (magma)
  --size N (the image's side in pixels)  --scale S
)"},
    {"experiment", R"(Usage: attnlab-cli experiment bottleneck [--dataset NAME] [--lengths 5,10,20,40]
                              [--epochs N] [--hidden N] [--seed S] [--threads N]
                              [--pairs N] [--attention KIND] [--lr F] [--bidirectional]
                              [--split-cjk|--no-split-cjk]
       attnlab-cli experiment needle [--lengths 25,50,100] [options below]
       attnlab-cli experiment faithfulness --model M (--corpus F.tsv | --dataset NAME) [options below]
       attnlab-cli experiment complexity [--max-len N] [--dim D] [--window W] [--repeats R]

bottleneck  trains a GRU without attention ('none') and one with attention
            (default additive) on the same task at each sentence length, and prints
            the held-out token accuracy per length as one JSON line:
            {"lengths": [...], "accuracy": {"none": [...], "additive": [...]},
             "seed": S}
            Defaults: copy, lengths 5,10,20,40, 10 epochs, hidden 128, 3000 pairs
            per length, learning rate 0.003, seed 1, a one-way encoder (so that
            'none' has one fixed vector) and train's other model defaults, the
            dataset's tokens (--split-cjk and --no-split-cjk as for train).
            The settings, seed included, and progress go to stderr.
needle      [--lengths 25,50,100] [--epochs 5] [--size 2000] [--hidden 64] [--seed 1]
            [--attention additive|dot|scaled-dot] [--bidirectional]
            trains classifiers on `needle` texts (one keyword anywhere among noise words
            decides the class) at each length: a one-way GRU's last state (none) against
            attention pooling. Prints {"lengths", "accuracy": {"none": [...], "additive":
            [...]}, "by_keyword_position": {...: [{"first_half", "second_half"}]}}.
faithfulness --model M (--corpus F.tsv | --dataset NAME) [--texts 200] [--permutations 20]
            [--steps 64] [--baseline-epochs 10] [--seed 1] [--val-fraction 0.1]
            is attention an explanation? Over the validation texts (the split train holds
            out with the same --seed and --val-fraction): Kendall tau between attention and
            each attribution method (mean, median, histogram over [-1, 1]), the share of
            texts whose most attended word is a gold rationale word, the permutation test
            (attention shuffled: median change of the output distribution) and the accuracy
            of the same model with uniform weights trained the same way.
complexity  times full softmax attention and the Transformer's patterns: local (2W+1
            keys per query), strided (a band of s and every s-th key, s = sqrt(N)),
            chunked (chunks of sqrt(N) and a summary per chunk) and linear (kernelised)
            for N = 64, 128, ... up to --max-len (default 8192) and prints seconds, the
            peak bytes each allocated and the fitted log-log slopes (methods.NAME.
            time_slope, memory_slope: memory about 2 for full, 1.5 for strided and
            chunked, 1 for local and linear) as JSON.
)"},
};

}  // namespace

bool printHelp(const std::string& command) {
    if (command.empty()) {
        std::cout << kOverview;
        return true;
    }
    auto it = kCommandHelp.find(command);
    if (it == kCommandHelp.end()) {
        std::cerr << "error: unknown command '" << command << "'\n";
        return false;
    }
    std::string text = it->second;
    if (const auto at = text.find("@TASKS@"); at != std::string::npos) {  // the one list, base/TaskIds.h
        const std::vector<std::string> ids = tasks::modelTaskIds();
        std::string list;
        for (std::size_t i = 0; i < ids.size(); ++i)
            list += (i == 0 ? "" : i + 1 == ids.size() ? " or " : ", ") + ids[i];
        text.replace(at, 7, list);
    }
    std::cout << text;
    return true;
}

}  // namespace attnlab::cli
