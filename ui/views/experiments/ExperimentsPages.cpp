// The Experiments view's two pages: the bottleneck form and chart, the complexity form and charts.
// Runs, points and export are in ExperimentsView.cpp.
#include "views/experiments/ExperimentsView.h"

#include "views/experiments/ExperimentsSupport.h"

namespace attnlab {

using namespace experiments_detail;

// ---- pages ----------------------------------------------------------------------------------------

QWidget* ExperimentsView::createBottleneckPage() {
    auto* page = new QWidget;
    auto* layout = new QHBoxLayout(page);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(12);

    auto* options = new QGroupBox(tr("Options"));
    auto* form = new QFormLayout(options);
    preset_ = new QComboBox;
    preset_->addItem(tr("Classroom (quick)"), static_cast<int>(BottleneckPreset::Classroom));
    preset_->addItem(tr("Full (as attnlab-cli)"), static_cast<int>(BottleneckPreset::Full));
    preset_->addItem(tr("Custom"), -1);
    preset_->setToolTip(tr("Classroom: shorter sentences, fewer pairs and epochs, about two CPU-minutes. Full: "
                           "the command line's defaults, about ten CPU-minutes, clearer curves."));
    form->addRow(tr("Preset:"), preset_);
    dataset_ = new QComboBox;
    for (const DatasetInfo& info : builtinDatasets()) {
        dataset_->addItem(QString::fromStdString(info.name), QString::fromStdString(info.name));
        dataset_->setItemData(dataset_->count() - 1, QString::fromStdString(info.description), Qt::ToolTipRole);
    }
    dataset_->setToolTip(tr("The task; copy is the clearest: the output must repeat every token."));
    form->addRow(tr("Dataset:"), dataset_);
    lengths_ = new QLineEdit;
    lengths_->setObjectName(QStringLiteral("lengths"));
    lengths_->setToolTip(tr("Sentence lengths in tokens; each gets its own corpus and its own models."));
    form->addRow(tr("Lengths:"), lengths_);
    auto* attentions = new QWidget;
    auto* grid = new QGridLayout(attentions);
    grid->setContentsMargins(0, 0, 0, 0);
    int i = 0;
    for (const char* name : kAttentions) {
        auto* box = new QCheckBox(QString::fromLatin1(name));
        attentionBoxes_.insert(QString::fromLatin1(name), box);
        grid->addWidget(box, i / 2, i % 2);
        connect(box, &QCheckBox::toggled, this, &ExperimentsView::markCustom);
        ++i;
    }
    attentionBoxes_.value(QStringLiteral("none"))
        ->setToolTip(tr("No attention: the decoder sees only the encoder's final state, one fixed vector."));
    form->addRow(tr("Attention:"), attentions);
    epochs_ = new QSpinBox;
    epochs_->setRange(1, 1000);
    form->addRow(tr("Epochs:"), epochs_);
    hidden_ = new QSpinBox;
    hidden_->setRange(4, 1024);
    hidden_->setSingleStep(16);
    form->addRow(tr("Hidden size:"), hidden_);
    pairs_ = new QSpinBox;
    pairs_->setRange(20, 1000000);
    pairs_->setSingleStep(500);
    pairs_->setToolTip(tr("Sentence pairs generated per length; 10% are held out for the accuracy."));
    form->addRow(tr("Pairs per length:"), pairs_);
    seed_ = new QSpinBox;
    seed_->setRange(0, 1000000);
    form->addRow(tr("Seed:"), seed_);
    estimate_ = new QLabel;
    estimate_->setWordWrap(true);
    estimate_->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(estimate_);
    options->setMaximumWidth(340);

    auto* buttons = new QHBoxLayout;
    bottleneckRunButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    bottleneckRunButton_->setToolTip(tr("Train every model at every length and plot its held-out accuracy "
                                        "(stops a running complexity measurement)"));
    bottleneckStop_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    buttons->addWidget(bottleneckRunButton_);
    buttons->addWidget(bottleneckStop_);
    form->addRow(buttons);

    auto* left = new QVBoxLayout;
    left->addWidget(options);
    left->addStretch(1);
    layout->addLayout(left);

    auto* right = new QVBoxLayout;
    right->addLayout(makeProgressRow(&bottleneckProgress_, &bottleneckMessage_));

    bottleneckChart_ = makeChart(tr("Held-out token accuracy against sentence length"));
    lengthAxis_ = new QValueAxis;
    lengthAxis_->setLabelFormat(QStringLiteral("%d"));
    styleAxis(lengthAxis_, tr("sentence length (tokens)"));
    accuracyAxis_ = new QValueAxis;
    accuracyAxis_->setRange(0.0, 1.0);
    accuracyAxis_->setTickCount(6);
    accuracyAxis_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(accuracyAxis_, tr("held-out token accuracy"));
    bottleneckChart_->addAxis(lengthAxis_, Qt::AlignBottom);
    bottleneckChart_->addAxis(accuracyAxis_, Qt::AlignLeft);
    bottleneckView_ = makeChartView(bottleneckChart_);

    table_ = new QTableWidget;
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setMaximumHeight(170);
    table_->setToolTip(tr("Held-out token accuracy: the share of output positions the greedy translation gets "
                          "right, on pairs the model never trained on."));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(bottleneckView_);
    split->addWidget(table_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    right->addWidget(split, 1);
    right->addWidget(explanation(
        tr("<b>What to look for.</b> Without attention (<i>none</i>) the decoder sees the sentence only through "
           "the encoder's final state, one vector of fixed size: the longer the sentence, the less of it that "
           "vector can hold, and accuracy falls as sentences grow. With attention the decoder looks back at "
           "every source token at every step, so its accuracy holds up: the gap between the lines widens to the "
           "right.")));
    layout->addLayout(right, 1);

    connect(preset_, &QComboBox::activated, this, [this] {
        const int preset = preset_->currentData().toInt();
        if (preset >= 0) applyPreset(static_cast<BottleneckPreset>(preset));
    });
    connect(dataset_, &QComboBox::currentIndexChanged, this, &ExperimentsView::markCustom);
    connect(lengths_, &QLineEdit::textEdited, this, &ExperimentsView::markCustom);
    for (QSpinBox* box : {epochs_, hidden_, pairs_, seed_})
        connect(box, &QSpinBox::valueChanged, this, &ExperimentsView::markCustom);
    connect(bottleneckRunButton_, &QPushButton::clicked, this, &ExperimentsView::runBottleneck);
    connect(bottleneckStop_, &QPushButton::clicked, this, &ExperimentsView::stop);
    return page;
}

QWidget* ExperimentsView::createComplexityPage() {
    auto* page = new QWidget;
    auto* layout = new QHBoxLayout(page);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(12);

    auto* options = new QGroupBox(tr("Options"));
    auto* form = new QFormLayout(options);
    fromLength_ = new QComboBox;
    toLength_ = new QComboBox;
    fillPowersOfTwo(fromLength_, 16, 16384);
    fillPowersOfTwo(toLength_, 16, 16384);
    fromLength_->setToolTip(tr("The shortest sequence; the lengths double up to the longest."));
    toLength_->setToolTip(tr("The longest sequence. Full attention at 16384 needs about 2 GB and seconds per "
                             "measurement."));
    form->addRow(tr("From N ="), fromLength_);
    form->addRow(tr("To N ="), toLength_);
    dim_ = new QSpinBox;
    dim_->setRange(1, 1024);
    dim_->setToolTip(tr("The size of each query, key and value vector."));
    form->addRow(tr("Dimension d:"), dim_);
    window_ = new QSpinBox;
    window_->setRange(1, 1024);
    window_->setToolTip(tr("Local attention: each query sees the 2w+1 keys around it."));
    form->addRow(tr("Window w:"), window_);
    repeats_ = new QSpinBox;
    repeats_->setRange(1, 25);
    repeats_->setToolTip(tr("Each time is the fastest of this many measurements: other programs running at the "
                            "same time can only slow a measurement down."));
    form->addRow(tr("Repeats:"), repeats_);
    fitFromBox_ = new QComboBox;
    fillPowersOfTwo(fitFromBox_, 16, 16384);
    fitFromBox_->setToolTip(tr("Slopes are fitted on N from here up: short sequences measure fixed overheads, "
                               "not growth."));
    form->addRow(tr("Fit slopes from N ="), fitFromBox_);
    auto* buttons = new QHBoxLayout;
    complexityRunButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    complexityRunButton_->setToolTip(tr("Time the three kinds of attention at every length (stops a running "
                                        "bottleneck experiment)"));
    complexityStop_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    buttons->addWidget(complexityRunButton_);
    buttons->addWidget(complexityStop_);
    form->addRow(buttons);
    options->setMaximumWidth(300);
    auto* left = new QVBoxLayout;
    left->addWidget(options);
    left->addStretch(1);
    layout->addLayout(left);

    auto* right = new QVBoxLayout;
    right->addLayout(makeProgressRow(&complexityProgress_, &complexityMessage_));

    auto makeLogChart = [](const QString& title, const QString& yTitle, QLogValueAxis** x, QLogValueAxis** y) {
        QChart* chart = makeChart(title);
        *x = new QLogValueAxis;
        (*x)->setBase(2.0);
        (*x)->setLabelFormat(QStringLiteral("%g"));
        styleAxis(*x, tr("sequence length N (log scale)"));
        *y = new QLogValueAxis;
        (*y)->setBase(10.0);
        (*y)->setLabelFormat(QStringLiteral("%g"));
        (*y)->setMinorTickCount(8);
        styleAxis(*y, yTitle);
        chart->addAxis(*x, Qt::AlignBottom);
        chart->addAxis(*y, Qt::AlignLeft);
        return chart;
    };
    timeChart_ = makeLogChart(tr("Time of one attention layer"), tr("seconds (log scale)"), &timeAxisX_, &timeAxisY_);
    memoryChart_ = makeLogChart(tr("Memory of its intermediate tensors"), tr("MB (log scale)"), &memoryAxisX_,
                                &memoryAxisY_);
    for (const char* m : kMethods) {
        const QString method = QString::fromLatin1(m);
        QLineSeries* time = makeSeries(method, methodColor(method));
        QLineSeries* memory = makeSeries(method, methodColor(method));
        addSeries(timeChart_, time, timeAxisX_, timeAxisY_);
        addSeries(memoryChart_, memory, memoryAxisX_, memoryAxisY_);
        timeSeries_.insert(method, time);
        memorySeries_.insert(method, memory);
    }
    timeView_ = makeChartView(timeChart_);
    memoryView_ = makeChartView(memoryChart_);
    auto* charts = new QSplitter(Qt::Vertical);  // full width each: eight length labels need it
    charts->addWidget(timeView_);
    charts->addWidget(memoryView_);
    right->addWidget(charts, 1);
    right->addWidget(explanation(
        tr("<b>What to look for.</b> Full attention scores every token against every other: N² numbers, so "
           "doubling N quadruples its time and memory, a line of slope 2 on log-log axes: O(N²). Local attention "
           "(each token sees 2w+1 neighbours) and linear attention (φ(Q)·(φ(K)ᵀV), which never forms the N×N "
           "matrix) grow in proportion to N: slope 1, O(N). Short sequences mostly measure fixed overheads, so "
           "the slopes are fitted on the longer ones.")));
    layout->addLayout(right, 1);

    ComplexityOptions defaults;
    setComplexityOptions(defaults);
    complexityPlan_ = complexityOptions();
    // The fit can move after a run: the measured points stay, the slopes follow.
    connect(fitFromBox_, &QComboBox::currentIndexChanged, this, [this] {
        complexityPlan_.fitFrom = fitFromBox_->currentData().toInt();
        updateSlopes();
    });
    connect(complexityRunButton_, &QPushButton::clicked, this, &ExperimentsView::runComplexity);
    connect(complexityStop_, &QPushButton::clicked, this, &ExperimentsView::stop);
    return page;
}

}  // namespace attnlab
