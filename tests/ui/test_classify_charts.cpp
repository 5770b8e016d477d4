// The classification task's charts: the curves view fed hand-made epochs (points, CSV and image
// export, a new run clearing it), and the needle experiment view (bad input, a tiny real run).
#include "views/classify/ClassifierCurvesView.h"
#include "views/classify/NeedleView.h"

#include <catch2/catch.hpp>

#include <QChart>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QValueAxis>

#include <cmath>
#include <limits>

#include "TempDir.h"
#include "ui/UiTestSupport.h"

using namespace attnlab;

namespace {

using test::waitUntil;

ClassifierEpochMetrics epoch(int e, double trainLoss, double validationLoss, double accuracy, double f1,
                             double rationale, double entropy) {
    ClassifierEpochMetrics m;
    m.epoch = e;
    m.trainLoss = trainLoss;
    m.validationLoss = validationLoss;
    m.accuracy = accuracy;
    m.macroF1 = f1;
    m.attentionEntropy = entropy;
    m.uniformEntropy = 2.5;
    m.rationaleMass = rationale;
    m.uniformRationaleMass = 0.125;
    m.pairsPerSecond = 1000;
    m.seconds = 1;
    return m;
}

void addThreeEpochs(ClassifierCurvesView& view) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    view.addEpoch(epoch(1, 1.5, 1.25, 0.5, 0.25, nan, 2.25));
    view.addEpoch(epoch(2, 0.75, 0.875, 0.75, 0.625, 0.375, 2));
    view.addEpoch(epoch(3, 0.5, 0.625, 0.875, 0.75, 0.5, 1.75));
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return QByteArray();
    return file.readAll();
}

}  // namespace

TEST_CASE("the classifier curves show every epoch, skip NaN and export their numbers", "[ui][classify]") {
    ClassifierCurvesView view;
    CHECK(view.epochs() == 0);
    CHECK_FALSE(view.exportsFigure());
    CHECK_FALSE(view.exportsMatrix());
    CHECK(view.viewTitle() == QStringLiteral("Curves"));

    addThreeEpochs(view);
    CHECK(view.epochs() == 3);
    CHECK(view.exportsFigure());
    CHECK(view.exportsMatrix());
    CHECK(view.trainLossSeries()->count() == 3);
    CHECK(view.validationLossSeries()->count() == 3);
    CHECK(view.accuracySeries()->count() == 3);
    CHECK(view.macroF1Series()->count() == 3);
    CHECK(view.rationaleMassSeries()->count() == 2);  // the first epoch's mass is NaN
    CHECK(view.uniformRationaleMassSeries()->count() == 2);
    CHECK(view.rationaleMassSeries()->at(0) == QPointF(2.0, 0.375));
    CHECK(view.uniformRationaleMassSeries()->pen().style() == Qt::DashLine);
    CHECK(view.rationaleMassSeries()->isVisible());
    CHECK(view.accuracySeries()->at(2) == QPointF(3.0, 0.875));
    // One chart for the losses, one for the scores (each line with its dots).
    CHECK(view.lossChart()->series().size() == 4);
    CHECK(view.scoreChart()->series().size() == 8);
    // The epoch axis runs from 1 to the newest epoch; the loss axis covers the largest loss.
    CHECK(view.epochAxis()->min() == 1.0);
    CHECK(view.epochAxis()->max() == 3.0);
    CHECK(view.lossAxis()->min() == 0.0);
    CHECK(view.lossAxis()->max() >= 1.5);

    test::TempDir dir;
    QString error;
    const QString csvPath = dir.filePath(QStringLiteral("curves.csv"));
    REQUIRE(view.exportView(csvPath, 1.0, &error));
    const QList<QByteArray> lines = readAll(csvPath).split('\n');
    REQUIRE(lines.size() == 5);  // header, three epochs, the empty rest after the last LF
    CHECK(lines[0] == "epoch,train_loss,val_loss,val_accuracy,val_macro_f1,rationale_mass,attention_entropy");
    CHECK(lines[1] == "1,1.5,1.25,0.5,0.25,,2.25");
    CHECK(lines[2] == "2,0.75,0.875,0.75,0.625,0.375,2");
    CHECK(lines[3] == "3,0.5,0.625,0.875,0.75,0.5,1.75");
    CHECK(lines[4].isEmpty());
    CHECK(view.csv() == readAll(csvPath));

    const QString png = dir.filePath(QStringLiteral("curves.png"));
    REQUIRE(view.exportView(png, 1.0, &error));
    CHECK(QImage(png).size() == QSize(900, 880));
    const QString svg = dir.filePath(QStringLiteral("curves.svg"));
    REQUIRE(view.exportView(svg, 1.0, &error));
    CHECK(readAll(svg).contains("<svg"));
    error.clear();
    CHECK_FALSE(view.exportView(dir.filePath(QStringLiteral("curves.npy")), 1.0, &error));
    CHECK(error.contains(QStringLiteral("CSV")));
    CHECK_FALSE(QFile::exists(dir.filePath(QStringLiteral("curves.npy"))));

    // A new run starts again; so does a discarded model.
    view.runStarted();
    CHECK(view.epochs() == 0);
    CHECK_FALSE(view.exportsMatrix());
    for (QLineSeries* s : {view.trainLossSeries(), view.validationLossSeries(), view.accuracySeries(),
                           view.macroF1Series(), view.rationaleMassSeries(), view.uniformRationaleMassSeries()})
        CHECK(s->count() == 0);
    CHECK_FALSE(view.rationaleMassSeries()->isVisible());
    error.clear();
    CHECK_FALSE(view.exportView(dir.filePath(QStringLiteral("empty.csv")), 1.0, &error));
    CHECK_FALSE(error.isEmpty());
    addThreeEpochs(view);
    CHECK(view.epochs() == 3);
    view.clearView();
    CHECK(view.epochs() == 0);
}

TEST_CASE("the needle view refuses a bad lengths field without starting", "[ui][classify]") {
    NeedleView view;
    CHECK(view.viewTitle() == QStringLiteral("Needle"));
    auto* lengths = view.findChild<QLineEdit*>(QStringLiteral("needleLengths"));
    auto* texts = view.findChild<QSpinBox*>(QStringLiteral("needleTexts"));
    REQUIRE(lengths != nullptr);
    REQUIRE(texts != nullptr);
    REQUIRE(view.findChild<QPushButton*>(QStringLiteral("needleRun")) != nullptr);
    REQUIRE(view.findChild<QPushButton*>(QStringLiteral("needleStop")) != nullptr);
    CHECK(lengths->text() == QStringLiteral("25, 50, 100"));
    CHECK(texts->value() == 2000);
    CHECK(view.options().epochs == 5);
    CHECK_FALSE(view.exportsFigure());

    lengths->setText(QStringLiteral("25, x"));
    view.run();
    CHECK_FALSE(view.isRunning());
    CHECK(view.message().contains(QStringLiteral("'x'")));
    CHECK(view.message().contains(QStringLiteral("text lengths")));
    CHECK(view.options().lengths.empty());

    lengths->setText(QStringLiteral("10 20;40"));
    CHECK(view.options().lengths == std::vector<int>{10, 20, 40});

    // An engine error (an unknown pooling) comes back through the runner as a message.
    NeedleOptions bad = view.options();
    bad.poolings = {"no-such-pooling"};
    bad.texts = 40;
    bad.epochs = 1;
    view.setOptions(bad);
    QSignalSpy failed(&view, &NeedleView::needleFailed);
    view.run();
    REQUIRE(waitUntil([&] { return !view.isRunning(); }, 30000));
    CHECK(failed.count() == 1);
    CHECK(view.message().contains(QStringLiteral("failed")));
}

TEST_CASE("a tiny needle run charts one point per length for every pooling", "[ui][classify]") {
    NeedleView view;
    NeedleOptions o;
    o.lengths = {10, 20};
    o.texts = 60;
    o.epochs = 1;
    o.hidden = 16;
    o.seed = 3;
    view.setOptions(o);
    const NeedleOptions read = view.options();
    CHECK(read.lengths == o.lengths);
    CHECK(read.texts == o.texts);
    CHECK(read.poolings == std::vector<std::string>{"none", "additive"});

    QSignalSpy finished(&view, &NeedleView::needleFinished);
    view.run();
    CHECK(view.isRunning());
    REQUIRE(waitUntil([&] { return !view.isRunning(); }, 120000));
    REQUIRE(finished.count() == 1);
    CHECK(finished.at(0).at(0).toBool() == false);

    CHECK(view.result().lengths == o.lengths);
    for (const char* pooling : {"none", "additive"}) {
        QLineSeries* series = view.series(QString::fromLatin1(pooling));
        REQUIRE(series != nullptr);
        REQUIRE(series->count() == 2);
        for (int i = 0; i < 2; ++i) {
            CHECK(series->at(i).x() == o.lengths[static_cast<std::size_t>(i)]);
            CHECK((series->at(i).y() >= 0.0 && series->at(i).y() <= 1.0));
            CHECK(series->at(i).y() == view.result().accuracy.at(pooling)[static_cast<std::size_t>(i)]);
        }
    }
    CHECK(view.series(QStringLiteral("none"))->name() == QStringLiteral("Last state (no attention)"));
    CHECK(view.series(QStringLiteral("additive"))->name() == QStringLiteral("Additive attention"));
    CHECK(view.message().contains(QStringLiteral("Done")));

    // Export: the chart as an image; a matrix is refused with a message.
    CHECK(view.exportsFigure());
    test::TempDir dir;
    QString error;
    const QString png = dir.filePath(QStringLiteral("needle.png"));
    REQUIRE(view.exportView(png, 1.0, &error));
    CHECK(QImage(png).size() == QSize(900, 520));
    CHECK_FALSE(view.exportView(dir.filePath(QStringLiteral("needle.csv")), 1.0, &error));
    CHECK_FALSE(error.isEmpty());

    // A discarded model leaves the experiment's result alone.
    view.clearView();
    CHECK(view.series(QStringLiteral("none"))->count() == 2);
}
