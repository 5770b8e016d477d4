#include "session/ClassifierLessons.h"

namespace attnlab {

std::vector<ClassifierLesson> classifierLessons() {
    std::vector<ClassifierLesson> out;
    // Is attention an explanation? The default classifier (bidirectional GRU, additive pooling) on
    // the sentiment reviews, whose gold rationales say which words decide. Measured
    // (docs/classification.md): 10 epochs, seeds 1-5 reach accuracy 1.00 with 0.60-0.80 of the
    // attention on the rationale (uniform: ~0.12); an epoch takes under a second here.
    {
        ClassifierLesson l = makeLesson<ClassifierLesson>(
            "explanation", LessonText::tr("Is attention an explanation?"),
            LessonText::tr(
            "A GRU classifier with attention pooling learns movie-review sentiment, where \"not\" flips an adjective "
            "and after \"but\" the second clause decides. Watch its attention find the deciding words in Classify. "
            "Then open Explain: do gradients, integrated gradients and leave-one-out point at the same words? Run "
            "the permutation test and the uniform baseline (Jain & Wallace; Wiegreffe & Pinter) and judge "
            "whether the attention explains the decision."),
            "classify");
        l.dataset = QStringLiteral("sentiment");
        l.texts = 2000;
        l.dataSeed = 1;
        l.options.epochs = 10;
        l.options.seed = 1;
        l.text = QStringLiteral("the plot was not boring but the acting was awful");
        out.push_back(l);
    }
    return out;
}

QList<LessonCard> classifierLessonCards() { return lessonCardsOf(classifierLessons()); }

ClassifierLesson findClassifierLesson(const QString& id) { return findLessonById(classifierLessons(), id); }

}  // namespace attnlab
