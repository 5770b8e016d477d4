#include "session/Lessons.h"

namespace attnlab {

std::vector<Lesson> lessons() {
    std::vector<Lesson> out;

    // Alignment: the classic English -> Chinese example. Word tokens on the Chinese side, so each
    // output word has one source word to look at.
    {
        Lesson l = makeLesson<Lesson>(
            "alignment", LessonText::tr("Alignment: English to Chinese"),
            LessonText::tr("A GRU with additive (Bahdanau) attention learns to translate. Each output word should "
                           "look at the word it translates: 汤姆 at \"tom\", 追逐 at \"chases\", 杰瑞 at \"jerry\", "
                           "a diagonal. Watch it form in Live Probe and Timeline, then translate \"tom chases jerry "
                           "in the park now\": Chinese moves the place and the time before the verb, and the "
                           "attention follows them off the diagonal."),
            "probe");
        // The model is the defaults (ModelConfig: bidirectional encoder, query after, dropout on
        // the embeddings; docs/defaults.md), so what the lesson shows is what a new model does.
        // Measured: with the defaults, 2000 pairs and 4 epochs, seeds 1-5 each gave the clean
        // diagonal for "tom chases jerry" (smallest weight on it 0.83); the lesson trains 6.
        l.dataset = QStringLiteral("toy-en-zh");
        l.data.size = 2000;
        l.data.seed = 1;
        l.config = ModelConfig{};
        l.config.architecture = Architecture::Gru;
        l.config.attention = AttentionKind::Additive;
        l.config.hidden = 128;
        l.options.epochs = 6;
        l.options.learningRate = 1e-3;
        l.options.seed = 1;
        l.probeSentence = QStringLiteral("tom chases jerry");
        l.translateSentence = QStringLiteral("tom chases jerry");
        out.push_back(l);
    }

    // The bottleneck: no attention at all, on sequences long enough to overflow one vector.
    {
        Lesson l = makeLesson<Lesson>(
            "bottleneck", LessonText::tr("The bottleneck: no attention on long sequences"),
            LessonText::tr("This GRU has no attention: the decoder sees the whole input as one fixed vector. It "
                           "learns to copy short letter sequences but fails on long ones; try a 5-letter and a "
                           "25-letter sequence in Translate. The Experiments tab measures it: accuracy against "
                           "length with and without attention."),
            "translate");
        l.dataset = QStringLiteral("copy");
        l.data.size = 3000;
        l.data.seed = 1;
        l.data.maxLen = 25;
        l.config.architecture = Architecture::Gru;
        l.config.attention = AttentionKind::None;
        l.config.hidden = 128;
        l.config.dropout = 0.0f;
        l.options.epochs = 10;
        l.options.learningRate = 3e-3;
        l.options.seed = 1;
        l.probeSentence = QStringLiteral("q w e r t y u i o p a s d f g h j k l z");
        l.translateSentence = QStringLiteral("h e l l o");
        out.push_back(l);
    }

    // Heads: a Transformer on the same reordering grammar; its heads divide the work.
    {
        Lesson l = makeLesson<Lesson>(
            "heads", LessonText::tr("Reordering and heads: a Transformer"),
            LessonText::tr("A Transformer with 2 layers of 4 heads each learns the same English to Chinese grammar, "
                           "where time and place move before the verb. The Heads view shows every head: some follow "
                           "the word order, some jump to the moved phrase, some watch the end of the sentence. Hover "
                           "a token to find it in every head."),
            "heads");
        l.dataset = QStringLiteral("toy-en-zh");
        l.data.size = 2000;
        l.data.seed = 1;
        l.config.architecture = Architecture::Transformer;
        l.config.hidden = 64;
        l.config.layers = 2;
        l.config.heads = 4;
        l.config.feedForward = 128;
        l.config.dropout = 0.1f;
        l.config.maxLength = 41;
        l.options.epochs = 20;
        l.options.learningRate = 2e-3;
        l.options.seed = 1;
        l.probeSentence = QStringLiteral("tom chases jerry in the park now");
        l.translateSentence = QStringLiteral("mary draws the cat in the red library this morning");
        out.push_back(l);
    }
    return out;
}

QList<LessonCard> lessonCards() { return lessonCardsOf(lessons()); }

Lesson findLesson(const QString& id) { return findLessonById(lessons(), id); }

}  // namespace attnlab
