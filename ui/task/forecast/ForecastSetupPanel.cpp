#include "task/forecast/ForecastSetupPanel.h"
#include "setup/LessonControls.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSpinBox>

namespace attnlab {

GeneratedSeriesOptions ForecastDataChoice::generated() const {
    GeneratedSeriesOptions o;
    const std::optional<SeriesKind> kind = parseSeriesKind(dataset.toStdString());
    o.kind = kind ? *kind : SeriesKind::Seasonal;
    o.length = length;
    o.period = period;
    o.lag = lag;
    o.noise = noise;
    o.seed = seed;
    return o;
}

QString ForecastDataChoice::describe() const {
    if (isFile()) {
        const QString file = QFileInfo(path).fileName();
        return column.isEmpty() ? file : QStringLiteral("%1 (%2)").arg(file, column);
    }
    return dataset;
}

ForecastSetupPanel::ForecastSetupPanel(QWidget* parent) : TaskSetupPanel(parent) {
    const GeneratedSeriesOptions series;
    const ForecastTrainingOptions training;

    period_ = spin(2, 10000, series.period, tr("The seasonal period in steps (regime: before the change)."));
    lag_ = spin(1, 10000, series.lag, tr("Echo: each value repeats the hidden signal this many steps back."));
    noise_ = new QDoubleSpinBox;
    noise_->setRange(0.0, 10.0);
    noise_->setSingleStep(0.05);
    noise_->setDecimals(2);
    noise_->setValue(series.noise);
    noise_->setToolTip(tr("The noise's standard deviation, in units of the seasonal amplitude."));
    column_ = new QComboBox;
    column_->setObjectName(QStringLiteral("forecastColumn"));
    column_->setToolTip(tr("The CSV column to forecast."));
    timestamp_ = new QComboBox;
    timestamp_->setObjectName(QStringLiteral("forecastTimestamp"));
    timestamp_->setToolTip(tr("A column kept as the time of each value (shown, never read as a number)."));
    addDataGroup(QStringLiteral("forecastDataset"),
                 {tr("Data"), tr("Series:"), tr("Length:"),
                  spin(16, 1000000, static_cast<int>(series.length), tr("Values to generate.")),
                  {{tr("Period:"), period_}, {tr("Lag:"), lag_}, {tr("Noise:"), noise_}, {tr("Column:"), column_},
                   {tr("Timestamp:"), timestamp_}},
                  tr("Data seed:"),
                  spin(0, 1000000, static_cast<int>(series.seed),
                       tr("The same seed gives the same series on every computer."))});
    dataset_->addItem(tr("seasonal: a period, a trend and noise"), QStringLiteral("seasonal"));
    dataset_->addItem(tr("echo: the value from a fixed lag back"), QStringLiteral("echo"));
    dataset_->addItem(tr("regime: the period changes halfway"), QStringLiteral("regime"));
    dataset_->addItem(tr("CSV file (a header, one column per series)…"), QStringLiteral("file"));
    dataset_->setToolTip(tr("The generated series know what the attention should find (the period, the lag); a "
                            "CSV file's column is forecast as it is."));
    connect(noise_, &QDoubleSpinBox::editingFinished, this, &ForecastSetupPanel::dataChanged);
    connect(column_, &QComboBox::activated, this, &ForecastSetupPanel::dataChanged);
    connect(timestamp_, &QComboBox::activated, this, &ForecastSetupPanel::dataChanged);

    // Model.
    QFormLayout* modelForm = addGroup(new QGroupBox(tr("Model")));
    context_ = spin(2, 4096, config_.context, tr("C: the history points the encoder reads."));
    context_->setObjectName(QStringLiteral("forecastContext"));
    horizon_ = spin(1, 512, config_.horizon, tr("H: the points forecast at once."));
    horizon_->setObjectName(QStringLiteral("forecastHorizon"));
    width_ = spin(8, 512, config_.dModel, tr("The Transformer's width (d_model), as Hidden size is every task's."));
    heads_ = spin(1, 16, config_.heads, tr("Heads; they must divide the width."));
    encoderLayers_ = spin(1, 8, config_.encoderLayers, tr("Encoder layers over the history."));
    decoderLayers_ = spin(1, 8, config_.decoderLayers, tr("Decoder layers: the forecast steps attend to the history."));
    loss_ = new QComboBox;
    loss_->addItem(tr("MSE (squared error)"), static_cast<int>(ForecastLoss::Mse));
    loss_->addItem(tr("MAE (absolute error)"), static_cast<int>(ForecastLoss::Mae));
    pattern_ = new QComboBox;
    pattern_->addItem(tr("full"), static_cast<int>(AttentionPattern::Full));
    pattern_->addItem(tr("local window"), static_cast<int>(AttentionPattern::Local));
    pattern_->addItem(tr("strided"), static_cast<int>(AttentionPattern::Strided));
    pattern_->addItem(tr("chunked"), static_cast<int>(AttentionPattern::Chunked));
    pattern_->addItem(tr("linear (kernelised)"), static_cast<int>(AttentionPattern::Linear));
    pattern_->setToolTip(tr("Which history points the encoder's self-attention looks at; the forecast steps' "
                            "cross-attention always sees the whole history."));
    window_ = spin(1, 4096, config_.window, tr("The local window W, or the band of the strided pattern."));
    timeFeatures_ = new QCheckBox(tr("Time features"));
    timeFeatures_->setToolTip(tr("Adds the sine and cosine of each point's place in the period (its phase) to its input."));
    modelForm->addRow(tr("Context:"), context_);
    modelForm->addRow(tr("Horizon:"), horizon_);
    modelForm->addRow(tr("Hidden size:"), width_);
    modelForm->addRow(tr("Heads:"), heads_);
    // Two settings a row, so that the panel fits a small screen's height.
    auto pair = [](QWidget* a, QWidget* b) {
        auto* row = new QWidget;
        auto* box = new QHBoxLayout(row);
        box->setContentsMargins(0, 0, 0, 0);
        box->addWidget(a, 1);
        box->addWidget(b, 1);
        return row;
    };
    modelForm->addRow(tr("Layers:"), pair(encoderLayers_, decoderLayers_));
    modelForm->addRow(tr("Loss:"), loss_);
    modelForm->addRow(tr("Pattern:"), pair(pattern_, window_));
    modelForm->addRow(timeFeatures_);

    trainingBox_ = TrainingBox::add(layout_, training, tr("Passes over the training windows."),
                                   tr("Windows per update."), TrainingBox::Order::RateThenBatch);
    connect(pattern_, &QComboBox::currentIndexChanged, this, &ForecastSetupPanel::updateEnabled);
    finish(QStringLiteral("forecast"), {column_, timestamp_, loss_, pattern_});
    markLessonControls({{period_, "period"}, {lag_, "lag"}, {noise_, "noise"}, {column_, "column"},
                        {timestamp_, "timestamp"}, {context_, "context"}, {horizon_, "horizon"}, {width_, "hidden"},
                        {heads_, "heads"}, {encoderLayers_, "layers"}, {decoderLayers_, "decoder_layers"},
                        {loss_, "loss"}, {pattern_, "pattern"}, {window_, "window"}, {timeFeatures_, "time_features"}});
    pattern_->setMinimumContentsLength(6);  // it shares its row with the window
}

bool ForecastSetupPanel::readsFile() const { return datasetName() == QLatin1String("file"); }

bool ForecastSetupPanel::datasetChosen() { return readsFile() && path_.isEmpty(); }

ForecastDataChoice ForecastSetupPanel::data() const {
    ForecastDataChoice c;
    c.dataset = datasetName();
    c.path = path_;
    if (c.isFile()) {
        c.column = column_->currentData().toString();
        c.timestampColumn = timestamp_->currentData().toString();
    }
    c.length = size_->value();
    c.period = period_->value();
    c.lag = lag_->value();
    c.noise = noise_->value();
    c.seed = static_cast<std::uint64_t>(dataSeed_->value());
    return c;
}

void ForecastSetupPanel::setData(const ForecastDataChoice& choice) {
    const bool samePath = choice.path == path_;
    showData(choice.dataset, choice.path, choice.length, choice.seed, tr("File: %1"));
    {
        const QSignalBlocker a(period_), b(lag_), c(noise_);
        period_->setValue(choice.period);
        lag_->setValue(choice.lag);
        noise_->setValue(choice.noise);
    }
    if (!samePath) setColumns({}, {}, {});  // another file: its columns come with its data
    if (choice.isFile() && (!choice.column.isEmpty() || !choice.timestampColumn.isEmpty())) {
        QStringList columns;
        for (int i = 0; i < column_->count(); ++i) columns << column_->itemData(i).toString();
        for (const QString& c : {choice.column, choice.timestampColumn})
            if (!c.isEmpty() && !columns.contains(c)) columns << c;
        setColumns(columns, choice.column, choice.timestampColumn);
    }
    updateEnabled();
    Q_EMIT dataChanged();
}

void ForecastSetupPanel::setColumns(const QStringList& columns, const QString& column, const QString& timestamp) {
    const QSignalBlocker a(column_), b(timestamp_);
    column_->clear();
    timestamp_->clear();
    timestamp_->addItem(tr("(none)"), QString());
    for (const QString& c : columns) {
        column_->addItem(c, c);
        timestamp_->addItem(c, c);
    }
    selectData(column_, column);
    selectData(timestamp_, timestamp);
    if (timestamp.isEmpty()) timestamp_->setCurrentIndex(0);
}

ForecastConfig ForecastSetupPanel::config() const {
    ForecastConfig c = config_;
    c.context = context_->value();
    c.horizon = horizon_->value();
    c.dModel = width_->value();
    c.heads = heads_->value();
    c.encoderLayers = encoderLayers_->value();
    c.decoderLayers = decoderLayers_->value();
    c.loss = static_cast<ForecastLoss>(loss_->currentData().toInt());
    c.pattern = static_cast<AttentionPattern>(pattern_->currentData().toInt());
    c.window = window_->value();
    c.timeFeatures = timeFeatures_->isChecked();
    return c;
}

void ForecastSetupPanel::setConfig(const ForecastConfig& c) {
    config_ = c;
    context_->setValue(c.context);
    horizon_->setValue(c.horizon);
    width_->setValue(c.dModel);
    heads_->setValue(c.heads);
    encoderLayers_->setValue(c.encoderLayers);
    decoderLayers_->setValue(c.decoderLayers);
    selectData(loss_, static_cast<int>(c.loss));
    selectData(pattern_, static_cast<int>(c.pattern));
    window_->setValue(c.window);
    timeFeatures_->setChecked(c.timeFeatures);
    updateEnabled();
}

ForecastTrainingOptions ForecastSetupPanel::options() const {
    return trainingBox_.read(options_);  // the stride, which the panel does not show, comes along
}

void ForecastSetupPanel::setOptions(const ForecastTrainingOptions& o) {
    options_ = o;
    trainingBox_.write(o);
}

void ForecastSetupPanel::enableRows() {
    const QString name = datasetName();
    const bool file = name == QLatin1String("file");
    auto* form = qobject_cast<QFormLayout*>(size_->parentWidget()->layout());
    if (form) {
        form->setRowVisible(size_, !file);
        form->setRowVisible(period_, name == QLatin1String("seasonal") || name == QLatin1String("regime"));
        form->setRowVisible(lag_, name == QLatin1String("echo"));
        form->setRowVisible(noise_, !file);
        form->setRowVisible(column_, file);
        form->setRowVisible(timestamp_, file);
        form->setRowVisible(dataSeed_, !file);
    }
    const auto pattern = static_cast<AttentionPattern>(pattern_->currentData().toInt());
    window_->setEnabled(pattern == AttentionPattern::Local || pattern == AttentionPattern::Strided);
    for (QWidget* w : {static_cast<QWidget*>(context_), static_cast<QWidget*>(horizon_),
                       static_cast<QWidget*>(width_), static_cast<QWidget*>(heads_),
                       static_cast<QWidget*>(encoderLayers_), static_cast<QWidget*>(decoderLayers_),
                       static_cast<QWidget*>(loss_), static_cast<QWidget*>(pattern_),
                       static_cast<QWidget*>(timeFeatures_)})
        w->setEnabled(!busy_);
    if (busy_) window_->setEnabled(false);
}

}  // namespace attnlab
