#include <iostream>
#include <map>

#include "CliTasks.h"
#include "Commands.h"
#include "base/TaskIds.h"

namespace attnlab::cli {

namespace {

const char* kOverview = R"(attnlab-cli - train small attention models and inspect their attention

Usage: attnlab-cli COMMAND [OPTIONS]

Commands:
  datasets     list the built-in datasets, or write one to a file
  inspect      read a corpus and report pairs, skipped lines, vocabularies, lengths
  lessons      list the built-in lessons, or check a lesson file (docs/lessons.md)
  train        train a GRU or Transformer model and save it (.safetensors)
  translate    translate sentences with a trained model, optionally with attention as JSON
  render       draw a model's attention for a sentence (PNG, SVG, PDF, CSV, NPY)
  experiment   run a teaching experiment (bottleneck, needle, faithfulness, deletion,
               complexity, long-range, positional)
  export       write the model's PyTorch package (attnlab.py and train.py; a language
               model's attnlab_lm.py) into a directory
  classify     label texts with a trained classifier (train --task classify), with its attention
  explain      attention beside gradient, grad x input, integrated gradients and leave-one-out
  look         what a vision model (train --task image-classify|caption) makes of an image
  heads        each head of a Transformer switched off in turn: loss, BLEU/accuracy/MAE, importance
  neighbours   the corpus tokens whose encoder states are nearest to one token's (exBERT)
  forecast     a forecaster's (train --task forecast) next points of a series, with its attention

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
  --size N            number of pairs or images (default 2000; glyphs 5000, scenes 6000)
  --objects N|MIN-MAX scenes: objects per scene, 1..4 (default 2-3)
  --noise X           scenes: a dark grey background with Gaussian noise of X on every pixel
                      (0..0.5, on 0..1; default 0: black, flat colours)
  --seed S            random seed (default 1); the same seed gives the same file
  --max-len N         maximum source length in tokens (default per dataset, up to 200)
  --alignments FILE   also write gold alignments, one line of "i-j" links per pair,
                      indexing the tokens the dataset trains on (toy-en-zh: Chinese words)
  --split-cjk         index Chinese/Japanese/Korean characters instead (--no-split-cjk: words)

Time series: attnlab-cli datasets --write seasonal|echo|regime --out FILE.csv [--length N]
             [--period P] [--second-period Q] [--lag K] [--noise X] [--seed S]
  writes the columns t,NAME (train --task forecast --series FILE.csv --column NAME reads it back
  to the same values). seasonal: a sine of period P (default 17; Q > 0 adds a second one), a
  slight trend and Gaussian noise of X (default 0.2) times the amplitude; echo: smoothed noise
  that comes back K steps later (default 24); regime: period P for the first half, then Q
  (default 2P - 1). --length default 2000 (16 to 10,000,000).
)"},
    {"lessons", R"(Usage: attnlab-cli lessons [--json] [--dir DIR]
       attnlab-cli lessons --check FILE.json

Lists the built-in lessons (id, task, title), read from $ATTNLAB_LESSON_DIR if set, else
BINDIR/../share/attnlab/lessons (the install, and build/share/attnlab/lessons in the build tree),
else BINDIR/lessons; --dir DIR lists the lessons in another folder. Start one in the window with
attnlab --lesson ID, or attnlab --lesson FILE.json for a file of your own.

  --json         {"lessons": [{"id", "title", "task", "file"}, ...]}
  --check FILE   validate one lesson file: prints "FILE: ok" (exit 0), or
                 "error: FILE: FIELD: reason" naming the field at fault (exit 3)

The format (version 1) is described, with an example, in docs/lessons.md.
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
and 48) or the generated scenes (--dataset scenes [--size N, default 6000] [--data-seed S]
[--objects N|MIN-MAX] [--noise X]): images, captions,
vocabulary, the longest caption, has_boxes.
With --task forecast: a series (--series FILE.csv --column NAME [--timestamp-column NAME], or
--dataset seasonal|echo|regime with --length, --period, --second-period, --lag, --noise,
--data-seed as for train): name, source, values, has_timestamps (first and last), mean, std,
min, max, estimated_period (autocorrelation of the detrended series, lags 2 to 1000 or to
--context), truth (generated series: period, second_period, lag, change_at); with --context C
--horizon H [--val-fraction F] also the split train would make: train_end, held_out.
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
)"},
    {"forecast", R"(Usage: attnlab-cli forecast --model MODEL.safetensors (--series FILE.csv --column NAME |
                             --dataset NAME [generator flags]) [--at I] [--json]
       attnlab-cli forecast --model MODEL.safetensors (--series ... | --dataset ...) --evaluate
                             [--val-fraction F] [--json]

Forecasts positions I .. I+H-1 of the series from the C values before I (C and H are the
model's context and horizon; I from C to the series' length, default its length: the H points
after its end). Prints a table (step, index or timestamp, forecast, the validation RMSE of the
step, the truth where the series has it, the most attended lag); with --json one object:
{"at", "context", "horizon", "history": [C], "forecast": [H], "truth": [the points the series
has, up to H], "spread": [H], "lag_profile": [C + H: mean cross-attention at each lag, index 0
unused], "period", "attention": {"cross": [layer][head][H][C], "encoder": [layer][head][C][C]}}
(rows sum to 1; "history_timestamps" and "forecast_timestamps" with --timestamp-column).
The series flags are train --task forecast's; a generated series needs the same flags as in
training to be the same series.

--evaluate prints the errors over every held-out window (the last --val-fraction, by default
the share the model was trained with) beside the baselines: the last value, the seasonal
naive (the value one period back) and the training mean; with --json
{"model": {"mae", "rmse", "mase"}, "last_value": {...}, "seasonal_naive": {...}, "mean": {...},
 "period", "windows", "tail_fraction", "step_rmse": [H], "period_mass_ratio", "period_mass",
 "period_point_share"}.
A model of another task, or a file that is no model, is exit 4.
)"},
    {"look", R"(Usage: attnlab-cli look --model MODEL.safetensors [--json] [--beam K] [--objects F.tsv] IMAGE

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
weights per caption token]}, "log_probability"}; for a scene whose objects are known, also
"objects": [{"colour", "shape", "box": [top, left, height, width], "box_share"}] (boxes at the
model's size), "in_box": [per token: the share of its attention in each object's box],
"peak_in_box" (per token and object: the peak cell's centre in the box or within half a cell of
it), "peak_strictly_in_box" (in the box itself), "word_classes" (per token: article, colour,
shape or relation), "word_objects" (per token: the objects it belongs to: a noun phrase's object,
the two objects a relation stands between) and "grounding" ({"article"|"colour"|"shape"|
"relation"|"phrase": {"words", "peak_near", "peak_inside"}}: of the words of each class that
belong to an object, the share whose peak is near / inside it; "phrase": colour and shape maps
averaged).
  --beam K          beam search for a captioner (default 1 = greedy)
  --objects F.tsv   the objects of the image (the objects.tsv of `datasets --write scenes`);
                    without it an IMAGE at DIR/images/NAME reads DIR/objects.tsv if there is one
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

       attnlab-cli explain --model VIT.safetensors [--json] [--class LABEL] [--steps N]
                           [--boxes boxes.tsv] IMAGE

With an image classifier (train --task image-classify), one number per patch from each
method, each a distribution over the patches (row-major):
  rollout                attention rollout, [CLS]'s row over the patches
  gradient               L2 norm of d logit / d pixels over the patch
  grad_x_input           |sum over the patch of pixel x d logit / d pixel|
  integrated_gradients   the same along the path from the black image, N steps (128)
  grad_rollout           gradient-weighted rollout (Chefer et al. 2021)
Kendall's tau between every two methods; ig_completeness: the attributions' sum, logit(image) -
logit(black) and the relative error |sum - difference| / |difference|; the deletion test: the patches
replaced by the image's mean colour in each method's order (and 5 random orders), the
probability of the class after each, and the area over each curve (AOPC: larger is more
faithful). With the box of the image (--boxes, or the boxes.tsv beside its class folder
that `datasets --write glyphs` writes): each method's mass in the box beside the box's
share of the image. --json prints {"label", "class_index", "probability", "grid",
"methods": {METHOD: [...]}, "tau": {METHOD: {METHOD: tau}}, "ig_completeness": {"attribution_sum",
"output_difference", "steps", "relative_error"},
"deletion": {"fractions", METHOD: [...], "random": [...], "area_over_curve"},
"mass_in_box", "box_share"}.

       attnlab-cli explain --model CAPTIONER.safetensors --word I [--json] [--steps N]
                           [--objects objects.tsv] IMAGE

With a captioner, word I (0 = the first) of its greedy caption, explained per grid cell: its
attention over the cells beside gradient, grad_x_input and integrated_gradients of its logit
(the words before it fed in), the taus, and the deletion test on the word's probability. For a
scene whose objects are known (--objects, or the objects.tsv beside images/), a colour or shape
word is measured on the box of the object it names. The JSON adds "caption" and "word".
)"},
    {"translate", R"(Usage: attnlab-cli translate --model MODEL.safetensors [--beam K] [--max-output N] [--ablate SPEC]
                             [--json [--beam-tree]] SENTENCE...
       attnlab-cli translate --model MODEL.safetensors --sample [--temperature T] [--top-k K]
                             [--top-p P] [--seed S] [--samples N] [--json] SENTENCE...

Translates each sentence. With --json, prints one object per sentence:
{"source_tokens": [...], "output_tokens": [...], "log_probability": x,
 "attention": {"cross": [[[[...]]]], ...}}
with each kind indexed [layer][head][target][source] (index 0 is the first layer and head,
which render's --layer 1 and --head 1 name).
  --beam K         beam width (default 1 = greedy)
  --max-output N   longest output in tokens (default: source length * 2 + 10)
  --beam-tree      with --json, add "beam_tree": every hypothesis each step kept, [{"parent"
                   (index into the list, -1 at the first step), "step", "token" ("</s>" when
                   it ends there), "p" (the token's probability), "log_probability" (the
                   hypothesis'), "finished", "best" (on the translation's path), "attention"
                   (its cross-attention row over the source, last layer, heads averaged)}]

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

A Transformer's JSON also has "rollout": {"encoder": [source][source]}: the attention rollout
of the encoder self-attention (Abnar & Zuidema 2020; per layer the heads' mean A, (A + I) / 2
with rows renormalised, multiplied through the layers; every row sums to 1).
  --ablate SPEC    switch heads off (Transformer): KIND:LAYER:HEAD[,...], KIND encoder,
                   decoder or cross, LAYER and HEAD counted from 1, any part * for all
                   (cross:*:* = every cross-attention head). The translation and every map
                   are the model's with those heads' outputs set to 0. The JSON adds
                   "ablated": [{"kind", "layer", "head"}], "original_output_tokens" (every
                   head on), "log_prob_original" (its log-probability, </s> included),
                   "log_prob_original_ablated" (the same tokens with the heads off) and
                   "output_changed"; the rollout leaves the ablated encoder heads out.
)"},
    {"heads", R"(Usage: attnlab-cli heads --model MODEL.safetensors (--corpus FILE.tsv | --dataset NAME)
                         [--limit N] [--seed S] [--random-orders R] [--json]
       attnlab-cli heads --model CLASSIFIER.safetensors (--corpus FILE.tsv | --dataset NAME) ...
       attnlab-cli heads --model VIT.safetensors (--images DIR | --idx IMAGES LABELS | --dataset NAME) ...
       attnlab-cli heads --model FORECASTER.safetensors (--series F.csv --column C | --dataset NAME) ...
       attnlab-cli heads --model LANGUAGE-MODEL.safetensors (--text FILE | --dataset repeats) ...

Measures every attention head of a Transformer over a data set. The model file decides the task:
  translation  encoder self-, decoder self- and cross-attention over the pairs of a corpus (the
               model's own vocabulary and tokenizer; --src/--tgt, --gettext, and --size,
               --data-seed, --max-len for a dataset as for train); metric BLEU
  classifier   each layer's self-attention over the texts (--corpus, or --dataset with --size,
               --data-seed, --length as for train --task classify); metric accuracy
  ViT          each layer's self-attention over the images (--images, --idx, or --dataset
               fashion-mnist [--split train|test, default test] or glyphs [--size, --data-seed]);
               images of a class the model does not know are skipped; metric accuracy
  forecaster   encoder self-, decoder self- and cross-attention over the held-out tail's windows
               as forecast --evaluate takes them (--val-fraction, default the model's); metric MAE
               (lower is better)
  language model  each layer's heads over the documents (--text FILE [--tokens] [--plain] or
               --dataset repeats), read with the model's own tokenizer; loss per predicted token;
               metric next-token accuracy (masked: of the hidden tokens)
For each:
  baseline     loss (translation: mean token cross-entropy, teacher forced; classifier and ViT:
               mean cross-entropy of the label; forecaster: the model's training loss, MSE or MAE,
               of the standardised values) and the metric (translation also the exact-match share)
  per head     that head alone switched off: delta_loss (> 0: it helped) and delta_metric
               (the change in the metric); and its gradient importance (Michel et al. 2019): the
               sum over items of |dL/d gate| at every gate 1, "gradient", divided by the l2
               norm of its layer's values, "importance" (>= 0)
  pruning      the metric with the k least important heads off together, k = 0 .. all
               ("pruning_curve"), and the mean over R random orders ("random_curve", default 3)
--json prints {"pairs", "metric": "bleu", "baseline": {"loss", "bleu", "exact"}, "heads":
[{"kind", "layer", "head", "loss", "bleu", "exact", "delta_loss", "delta_metric", "gradient",
"importance"}], "pruning_order": ["KIND:LAYER:HEAD", ...], "pruning_curve": [{"pruned",
"pruned_fraction", "metric", "loss"}], "random_curve": [...], "heads_prunable_within_10_percent"}
for a translation model; for the others "texts", "images" or "windows" (the items measured),
"metric": "accuracy" or "mae", "higher_is_better", "baseline": {"loss", METRIC} and each head's
METRIC in place of "bleu" and "exact". Layers and heads count from 1. A GRU model (translation or
classifier) and a captioner are usage errors (they have no heads). Within 10% means at least 90%
of the baseline's metric, or for MAE at most 110% of it.
  --limit N            the first N usable items only (default all; the study makes 1 + (2 + R) x
                       heads passes over them, so Fashion-MNIST's 10,000 test images want a limit)
  --seed S             seed of the random orders (default 1)
  --random-orders R    random orders averaged in random_curve (default 3; 0: none)
)"},
    {"neighbours", R"(Usage: attnlab-cli neighbours --model MODEL.safetensors (--corpus FILE.tsv | --dataset NAME)
                              --sentence TEXT --token I [--layer L] [--k K] [--json]

Nearest neighbours of one token's contextual encoder state (exBERT's search, Hoover et al. 2020):
the state of token I of the query sentence is compared, by cosine similarity, with the state of
every token of every source sentence of the corpus (each encoded alone, as translate encodes it),
and the K most similar are printed, most similar first. When the query sentence is in the corpus
its own occurrence (same tokens, same position) comes first, with similarity 1.
  --sentence TEXT  the query sentence, tokenized as the model tokenizes (unknown words <unk>)
  --token I        0-based position in the tokenized sentence, </s> included (translate --json
                   prints the tokens as "source_tokens")
  --layer L        a Transformer's encoder layer whose output is compared, 1 to its layers
                   (default the last); a GRU has one set of encoder states (L must be 1)
  --k K            how many neighbours (default 10, at least 1)
The corpus flags (--src/--tgt, --gettext, and --size, --data-seed, --max-len for a dataset) are
train's. --json prints {"query": {"sentence", "tokens", "position", "token"}, "layer",
"sentences", "neighbours": [{"sentence", "sentence_index", "token", "position", "similarity"}]},
similarities in [-1, 1], descending (ties: the query's own occurrence, then corpus order).
)"},
    {"export", R"(Usage: attnlab-cli export --model MODEL.safetensors --pytorch DIR

The model in PyTorch, as the model file's task writes it; each file needs only python3-torch
(it reads and writes .safetensors itself).
  A translation model: DIR/attnlab.py (networks, tokenizer, vocabularies, decoding) and
  DIR/train.py (fine-tuning or --from-scratch training on one or several processes, saving
  an AttnLab checkpoint).
  A language model (train --task lm): DIR/attnlab_lm.py (the network, the tokenizer, encode,
  attend and generate as the CLI's, AttnLab's training loss, and save for an AttnLab
  checkpoint).
Other models have no package yet (exit 2). DIR is created if needed; existing files are
replaced atomically. The model is checked first (a bad model file exits 4 and writes
nothing). See docs/pytorch.md.
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
       attnlab-cli experiment deletion --model VIT (--images DIR | --dataset NAME) [options below]
       attnlab-cli experiment complexity [--max-len N] [--dim D] [--window W] [--repeats R]
       attnlab-cli experiment long-range [--lengths 128,512,2048] [--memory-budget 2G] [options below]
       attnlab-cli experiment positional [--dataset reverse] [--lengths 8,16,32] [options below]

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
deletion    --model VIT (--images DIR | --idx IMAGES LABELS | --dataset glyphs|fashion-mnist)
            [--limit 200] [--steps 128] [the data flags of train --task image-classify]
            the explanation lab over a set (Fashion-MNIST: the test split): each image
            explained as `explain` does, then the mean deletion curve and AOPC per method
            and for random orders, the mean Kendall tau per pair, integrated gradients'
            mean and worst completeness and, with boxes (--dataset glyphs),
            each method's mean mass in the box beside the box's mean share (accuracy is null
            when the data's classes are not the model's), as JSON:
            {"images", "accuracy", "deletion", "tau", "ig_completeness", "mass_in_box",
            "box_share"}.
complexity  times full softmax attention and the Transformer's patterns: local (2W+1
            keys per query), strided (a band of s and every s-th key, s = sqrt(N)),
            chunked (chunks of sqrt(N) and a summary per chunk) and linear (kernelised)
            for N = 64, 128, ... up to --max-len (default 8192) and prints seconds, the
            peak bytes each allocated and the fitted log-log slopes (methods.NAME.
            time_slope, memory_slope: memory about 2 for full, 1.5 for strided and
            chunked, 1 for local and linear) as JSON.
long-range  [--lengths 128,512,2048] [--patterns full,local,strided,chunked,linear]
            [--warmup-steps 300] [--warmup-length 32] [--steps 40] [--extend-steps 4]
            [--no-extend] [--max-length 16384 (up to 65536)]
            [--memory-budget 2G] [--batch 4] [--texts 64] [--window 16] [--hidden 32]
            [--seed 1]
            trains the classifier Transformer (2 layers, 2 heads) with each attention
            pattern on `needle` texts of N words, where [CLS] must find the one colour
            word up to N positions away: first --warmup-steps Adam steps at N =
            --warmup-length (the task learnt where every pattern sees the whole text; not
            reported), then --steps at each listed N, each N
            going on from the weights of the one before, then N doubles (--extend-steps
            steps each) while the pattern's training step fits --memory-budget (K/M/G;
            a plain number is megabytes), up to --max-length. A step's peak is predicted
            from the smaller N before it runs, and an allocation past the budget ends
            that N, never the process. Prints {"lengths", "memory_budget", "patterns":
            {NAME: {"complexity", "longest", "rows": [{"length", "status": ran|
            over_budget, "accuracy", "seconds_per_step", "cpu_seconds_per_step" (all
            threads: unlike wall time, not inflated by other programs), "peak_bytes", "steps",
            "predicted_bytes"}]}}}.
positional  [--dataset reverse] [--lengths 8,16,32] [--models sinusoidal,learned,none,gru]
            [--epochs 8] [--hidden 64] [--pairs 1500] [--lr 0.002] [--seed 1] [--threads N]
            trains a Transformer (2 layers, 4 heads) with sinusoidal, learned and no
            positional encoding (train's --positional) and a GRU with additive attention
            on an order-sensitive task at each length; prints {"dataset", "lengths",
            "models", "token_accuracy": {MODEL: [...]}, "exact_match": {MODEL: [...]}}.
)"},
};

}  // namespace

bool printHelp(const std::string& command) {
    if (command.empty()) {
        std::string text = kOverview;
        std::string own;  // the tasks' own commands, under the shared ones
        for (const FrontTask& task : frontTasks())
            for (const FrontTask::OwnCommand& c : task.commands)
                own += "  " + c.name + std::string(c.name.size() < 12 ? 13 - c.name.size() : 1, ' ') + c.summary + "\n";
        if (const auto at = text.find("\nOptions:"); at != std::string::npos) text.insert(at, own);
        std::cout << text;
        return true;
    }
    if (const FrontTask* task = taskOwningCommand(command)) {
        for (const FrontTask::OwnCommand& c : task->commands)
            if (c.name == command) std::cout << c.help;
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
    if (command == "train") {  // each task's data and flags (CliTasks.h), the default task's first
        bool first = true;
        for (const FrontTask& task : frontTasks()) {
            if (task.trainHelp.empty()) continue;
            if (!first) text += "\n";
            text += task.trainHelp;
            first = false;
        }
    }
    std::cout << text;
    return true;
}

}  // namespace attnlab::cli
