#include "Series.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <system_error>

#include "base/io/FileUtil.h"
#include "base/InputError.h"
#include "base/SeededRandom.h"

namespace attnlab {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr std::size_t kMaxQuotedCellBytes = 40;
constexpr std::size_t kMaxListedColumns = 20;

// A cell or a column name for a message: in single quotes, control bytes shown as '?', cut after
// 40 bytes (at a UTF-8 code point boundary when the text is UTF-8).
std::string quotedCell(const std::string& text) {
    std::string shown;
    std::size_t end = text.size();
    if (end > kMaxQuotedCellBytes) {
        end = kMaxQuotedCellBytes;
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    }
    for (std::size_t i = 0; i < end; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        shown += (c < 0x20 || c == 0x7F) ? '?' : static_cast<char>(c);
    }
    return "'" + shown + (end < text.size() ? "...'" : "'");
}

bool isSpace(char c) { return c == ' ' || c == '\t'; }

// One field of a record: its text (quotes removed, "" unescaped; unquoted fields without the
// spaces and tabs around them) and whether it was quoted.
struct Field {
    std::string text;
    bool quoted = false;
};

// Reads a comma-separated text record by record (RFC 4180: fields in double quotes may hold
// commas, line breaks and "" for a quote; records end with LF or CRLF; a leading UTF-8 BOM is
// skipped). Every error is an InputError naming the file and the line the record starts on.
class CsvCursor {
public:
    CsvCursor(const std::string& text, const std::string& name) : text_(text), name_(name) {
        if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
        if (text_.size() >= 2 && ((text_[0] == '\xFF' && text_[1] == '\xFE') || (text_[0] == '\xFE' && text_[1] == '\xFF')))
            throw InputError(name_, 1, "UTF-16 text; save the file as UTF-8");
        if (text_.size() >= 2 && text_[0] == '\x1F' && text_[1] == '\x8B')
            throw InputError(name_, 1, "gzip-compressed; decompress it first");
    }

    // The next record into `fields` (reused); false at the end of the text. `line()` is then the
    // line the record started on.
    bool next(std::vector<Field>& fields) {
        fields.clear();
        if (pos_ >= text_.size()) return false;
        line_ = nextLine_;
        for (;;) {
            Field field;
            readField(field);
            fields.push_back(std::move(field));
            if (pos_ >= text_.size()) return true;
            const char c = text_[pos_];
            if (c == ',') {
                ++pos_;
                continue;
            }
            // A line end (readField stops only at a comma, a line end or the end of the text).
            if (c == '\r') ++pos_;
            ++pos_;  // the '\n'
            ++nextLine_;
            return true;
        }
    }
    long line() const { return line_; }

private:
    void readField(Field& field) {
        std::size_t p = pos_;
        while (p < text_.size() && isSpace(text_[p])) ++p;
        if (p < text_.size() && text_[p] == '"') {
            field.quoted = true;
            ++p;
            for (;;) {
                if (p >= text_.size()) throw InputError(name_, line_, "a quoted field is not closed");
                const char c = text_[p];
                if (c == '"') {
                    if (p + 1 < text_.size() && text_[p + 1] == '"') {
                        field.text += '"';
                        p += 2;
                        continue;
                    }
                    ++p;
                    break;
                }
                if (c == '\n') ++nextLine_;
                field.text += c;
                ++p;
            }
            while (p < text_.size() && isSpace(text_[p])) ++p;
            if (p < text_.size() && !atFieldEnd(p))
                throw InputError(name_, line_, "text after the closing quote of a field");
            pos_ = p;
            return;
        }
        const std::size_t start = pos_;
        p = pos_;
        while (p < text_.size() && !atFieldEnd(p)) {
            if (text_[p] == '"') throw InputError(name_, line_, "a quote inside an unquoted field");
            if (text_[p] == '\r') throw InputError(name_, line_, "a carriage return not followed by a line feed");
            ++p;
        }
        std::size_t b = start, e = p;
        while (b < e && isSpace(text_[b])) ++b;
        while (e > b && isSpace(text_[e - 1])) --e;
        field.text.assign(text_, b, e - b);
        pos_ = p;
    }
    bool atFieldEnd(std::size_t p) const {
        const char c = text_[p];
        return c == ',' || c == '\n' || (c == '\r' && p + 1 < text_.size() && text_[p + 1] == '\n');
    }

    const std::string& text_;
    const std::string& name_;
    std::size_t pos_ = 0;
    long line_ = 1;
    long nextLine_ = 1;
};

bool isBlankRecord(const std::vector<Field>& fields) {
    return fields.size() == 1 && !fields[0].quoted && fields[0].text.empty();
}

// Parses the whole of `text` as a finite double, or says why not.
std::optional<double> parseNumber(const std::string& text, std::string& why) {
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') ++first;  // from_chars refuses a plus sign
    double value = 0;
    const auto [end, ec] = std::from_chars(first, last, value, std::chars_format::general);
    if (ec == std::errc::result_out_of_range) {
        why = "is out of the range of a double";
        return std::nullopt;
    }
    if (ec != std::errc() || end != last || first == last) {
        why = "is not a number";
        return std::nullopt;
    }
    if (!std::isfinite(value)) {
        why = "is not a finite number";
        return std::nullopt;
    }
    return value;
}

bool looksLikeNumber(const std::string& text) {
    std::string why;
    return !text.empty() && parseNumber(text, why).has_value();
}

std::vector<std::string> headerOf(const std::string& text, const std::string& name, CsvCursor& cursor) {
    std::vector<Field> fields;
    if (text.empty() || text == "\xEF\xBB\xBF") throw InputError(name, 0, "empty file");
    cursor.next(fields);
    if (isBlankRecord(fields)) throw InputError(name, 1, "the first line is blank; it must name the columns");
    std::vector<std::string> columns;
    bool allNumbers = true;
    for (Field& f : fields) {
        allNumbers = allNumbers && !f.quoted && looksLikeNumber(f.text);
        columns.push_back(std::move(f.text));
    }
    if (allNumbers)
        throw InputError(name, 1, "no header: the first line holds numbers; it must name the columns");
    return columns;
}

std::string columnList(const std::vector<std::string>& columns) {
    std::string list;
    for (std::size_t i = 0; i < columns.size() && i < kMaxListedColumns; ++i) list += (i ? ", " : "") + quotedCell(columns[i]);
    if (columns.size() > kMaxListedColumns) list += ", ... (" + std::to_string(columns.size()) + " in all)";
    return list;
}

std::size_t columnIndex(const std::vector<std::string>& columns, const std::string& column, const std::string& name) {
    const auto it = std::find(columns.begin(), columns.end(), column);
    if (it == columns.end())
        throw InputError(name, 1, "no column " + quotedCell(column) + " (the columns are " + columnList(columns) + ")");
    const std::size_t index = static_cast<std::size_t>(it - columns.begin());
    if (std::find(it + 1, columns.end(), column) != columns.end())
        throw InputError(name, 1, "column " + quotedCell(column) + " appears more than once in the header");
    return index;
}

// CSV field text: quoted when it holds a comma, a quote, a line break or spaces at an end (which
// the reader would strip), or when it is empty.
std::string csvField(const std::string& s) {
    const bool needsQuotes = s.empty() || s.find_first_of(",\"\r\n") != std::string::npos || isSpace(s.front()) ||
                             isSpace(s.back());
    if (!needsQuotes) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

std::string shortestRoundTrip(double x) {
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, 17);
    if (ec != std::errc()) throw std::runtime_error("cannot format a number");
    return std::string(buffer, end);
}

// A standard normal draw from the engine, the same on every standard library (Box-Muller over
// 53-bit uniforms; std::normal_distribution is not specified bit for bit).
class Gaussian {
public:
    explicit Gaussian(std::uint64_t seed) : engine_(seed) {}
    double next() {
        if (hasSpare_) {
            hasSpare_ = false;
            return spare_;
        }
        const double u1 = (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
        const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;          // [0, 1)
        const double r = std::sqrt(-2.0 * std::log(u1));
        spare_ = r * std::sin(2 * kPi * u2);
        hasSpare_ = true;
        return r * std::cos(2 * kPi * u2);
    }

private:
    std::mt19937_64 engine_;
    bool hasSpare_ = false;
    double spare_ = 0;
};

void checkOptions(const GeneratedSeriesOptions& o) {
    if (o.length < 16 || static_cast<std::size_t>(o.length) > kMaxSeriesValues)
        throw ConfigError(*outOfRange(Setting::SeriesLength, o.length, 16, static_cast<long long>(kMaxSeriesValues)));
    if (auto p = outOfRange(Setting::ForecastPeriod, o.period, 2, 1'000'000)) throw ConfigError(*p);
    if (o.secondPeriod != 0)
        if (auto p = outOfRange(Setting::ForecastPeriod, o.secondPeriod, 2, 1'000'000)) throw ConfigError(*p);
    if (o.kind == SeriesKind::Echo)
        if (auto p = outOfRange(Setting::EchoLag, o.lag, 1, 1'000'000)) throw ConfigError(*p);
    if (!(o.noise >= 0.0 && o.noise <= 1e6))
        throw ConfigError("noise must be between 0 and 1000000, got " + shortestRoundTrip(o.noise));
    if (!(std::fabs(o.trend) <= 1e6)) throw ConfigError("trend must be between -1000000 and 1000000, got " + shortestRoundTrip(o.trend));
}

void checkMap(const std::vector<float>& cross, int horizon, int context) {
    if (horizon < 1 || context < 1 ||
        cross.size() != static_cast<std::size_t>(horizon) * static_cast<std::size_t>(context))
        throw std::invalid_argument("cross-attention map of " + std::to_string(cross.size()) + " weights is not " +
                                    std::to_string(horizon) + " x " + std::to_string(context));
}

}  // namespace

// ---------------------------------------------------------------- CSV

std::vector<std::string> parseCsvColumns(const std::string& text, const std::string& name) {
    CsvCursor cursor(text, name);
    return headerOf(text, name, cursor);
}

std::vector<std::string> readCsvColumns(const std::string& path) {
    return parseCsvColumns(readFileLimited(path, kMaxSeriesFileBytes), path);
}

Series parseSeriesCsv(const std::string& text, const std::string& name, const std::string& column,
                      const std::string& timestampColumn) {
    if (text.size() > kMaxSeriesFileBytes)
        throw InputError(name, 0, "larger than " + std::to_string(kMaxSeriesFileBytes >> 20) + " MiB");
    CsvCursor cursor(text, name);
    const std::vector<std::string> columns = headerOf(text, name, cursor);
    const std::size_t valueIndex = columnIndex(columns, column, name);
    const bool withTimestamps = !timestampColumn.empty();
    const std::size_t timeIndex = withTimestamps ? columnIndex(columns, timestampColumn, name) : 0;
    const std::size_t needed = std::max(valueIndex, withTimestamps ? timeIndex : 0) + 1;

    Series series;
    series.name = column;
    series.source = name;
    std::vector<Field> fields;
    long blankLine = 0;  // the first of the blank lines seen since the last row, or 0
    while (cursor.next(fields)) {
        if (isBlankRecord(fields)) {
            if (blankLine == 0) blankLine = cursor.line();
            continue;
        }
        if (blankLine != 0) throw InputError(name, blankLine, "blank line between data rows");
        if (series.values.size() >= kMaxSeriesValues)
            throw InputError(name, cursor.line(), "more than " + std::to_string(kMaxSeriesValues) + " rows");
        if (fields.size() < needed)
            throw InputError(name, cursor.line(),
                             std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields") +
                                 "; column " + quotedCell(fields.size() <= valueIndex ? column : timestampColumn) +
                                 " is field " + std::to_string((fields.size() <= valueIndex ? valueIndex : timeIndex) + 1));
        const std::string& cell = fields[valueIndex].text;
        if (cell.empty()) throw InputError(name, cursor.line(), "column " + quotedCell(column) + ": empty cell");
        std::string why;
        const std::optional<double> value = parseNumber(cell, why);
        if (!value) throw InputError(name, cursor.line(), "column " + quotedCell(column) + ": " + quotedCell(cell) + " " + why);
        series.values.push_back(*value);
        if (withTimestamps) series.timestamps.push_back(fields[timeIndex].text);
    }
    if (series.values.empty()) throw InputError(name, 0, "no data rows (only the header)");
    return series;
}

Series readSeriesCsv(const std::string& path, const std::string& column, const std::string& timestampColumn) {
    return parseSeriesCsv(readFileLimited(path, kMaxSeriesFileBytes), path, column, timestampColumn);
}

std::string seriesCsvText(const Series& series) {
    const bool withTimestamps = !series.timestamps.empty();
    if (withTimestamps && series.timestamps.size() != series.values.size())
        throw std::invalid_argument(std::to_string(series.timestamps.size()) + " timestamps for " +
                                    std::to_string(series.values.size()) + " values");
    std::string first = withTimestamps ? "timestamp" : "t";
    while (first == series.name) first += '_';
    std::string csv = csvField(first) + ',' + csvField(series.name) + '\n';
    for (std::size_t i = 0; i < series.values.size(); ++i) {
        if (!std::isfinite(series.values[i]))
            throw std::invalid_argument("value " + std::to_string(i + 1) + " is not finite");
        csv += withTimestamps ? csvField(series.timestamps[i]) : std::to_string(i);
        csv += ',';
        csv += shortestRoundTrip(series.values[i]);
        csv += '\n';
    }
    return csv;
}

void writeSeriesCsv(const Series& series, const std::string& path) {
    std::string csv;
    try {
        csv = seriesCsvText(series);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    writeFileAtomically(path, csv);
}

// ---------------------------------------------------------------- generated series

std::string toString(SeriesKind k) {
    switch (k) {
    case SeriesKind::Seasonal: return "seasonal";
    case SeriesKind::Echo: return "echo";
    case SeriesKind::Regime: return "regime";
    }
    return "seasonal";
}

std::optional<SeriesKind> parseSeriesKind(const std::string& s) {
    for (SeriesKind k : {SeriesKind::Seasonal, SeriesKind::Echo, SeriesKind::Regime})
        if (s == toString(k)) return k;
    return std::nullopt;
}

std::vector<std::string> seriesKindNames() { return {"seasonal", "echo", "regime"}; }

Series generateSeries(const GeneratedSeriesOptions& o) {
    checkOptions(o);
    Gaussian gauss(o.seed);
    Series s;
    s.name = toString(o.kind);
    const auto n = static_cast<std::size_t>(o.length);
    s.values.resize(n);
    switch (o.kind) {
    case SeriesKind::Seasonal: {
        s.truth.period = o.period;
        s.truth.secondPeriod = o.secondPeriod;
        for (std::size_t t = 0; t < n; ++t) {
            const double td = static_cast<double>(t);
            double v = std::sin(2 * kPi * td / o.period);
            if (o.secondPeriod > 0) v += kSecondAmplitude * std::sin(2 * kPi * td / o.secondPeriod);
            s.values[t] = v + o.trend * td + o.noise * gauss.next();
        }
        break;
    }
    case SeriesKind::Echo: {
        s.truth.lag = o.lag;
        const auto lag = static_cast<std::size_t>(o.lag);
        const double innovation = std::sqrt(1 - kEchoSmoothing * kEchoSmoothing);
        double x = 0;  // smooth noise: AR(1) of unit variance, after a burn-in of 50 steps
        for (int i = 0; i < 50; ++i) x = kEchoSmoothing * x + innovation * gauss.next();
        for (std::size_t t = 0; t < n; ++t) {
            x = kEchoSmoothing * x + innovation * gauss.next();
            const double echo = t >= lag ? kEchoGain * s.values[t - lag] : 0.0;
            s.values[t] = echo + x + o.noise * gauss.next();
        }
        break;
    }
    case SeriesKind::Regime: {
        const int second = o.secondPeriod > 0 ? o.secondPeriod : 2 * o.period - 1;
        s.truth.period = o.period;
        s.truth.secondPeriod = second;
        s.truth.changeAt = o.length / 2;
        double phase = 0;  // accumulated, so the curve does not jump at the change
        for (std::size_t t = 0; t < n; ++t) {
            s.values[t] = std::sin(phase) + o.trend * static_cast<double>(t) + o.noise * gauss.next();
            const int p = static_cast<long>(t) + 1 < s.truth.changeAt ? o.period : second;
            phase = std::fmod(phase + 2 * kPi / p, 2 * kPi);
        }
        break;
    }
    }
    return s;
}

// ---------------------------------------------------------------- split, standardisation

SeriesSplit splitSeries(const Series& series, int context, int horizon, double tailFraction) {
    if (auto p = outOfRange(Setting::Context, context, 1, kMaxForecastContext)) throw ConfigError(*p);
    if (auto p = outOfRange(Setting::Horizon, horizon, 1, kMaxForecastHorizon)) throw ConfigError(*p);
    if (!(tailFraction >= 0.0 && tailFraction < 1.0)) {
        SettingProblem p;
        p.setting = Setting::ValidationFraction;
        p.value = shortestRoundTrip(tailFraction);
        p.low = "0";
        p.high = "1";
        p.highOpen = true;
        throw ConfigError(p);
    }
    const long n = static_cast<long>(series.values.size());
    const long window = static_cast<long>(context) + horizon;
    if (n < 2 * window)
        throw InputError(series.source.empty() ? series.name : series.source, 0,
                         std::to_string(n) + " values; a context of " + std::to_string(context) + " and a horizon of " +
                             std::to_string(horizon) + " need at least " + std::to_string(2 * window) +
                             " (one window to train on and one to hold out)");
    long tail = static_cast<long>(std::ceil(tailFraction * static_cast<double>(n)));
    tail = std::clamp(tail, window, n - window);
    return {n - tail, n};
}

Standardizer fitStandardizer(const std::vector<double>& values, long end) {
    if (end < 0 || static_cast<std::size_t>(end) > values.size())
        throw std::invalid_argument("fitStandardizer: end " + std::to_string(end) + " is outside 0.." +
                                    std::to_string(values.size()));
    Standardizer s;
    if (end == 0) return s;
    double sum = 0;
    for (long i = 0; i < end; ++i) sum += values[static_cast<std::size_t>(i)];
    s.mean = sum / static_cast<double>(end);
    double squares = 0;
    for (long i = 0; i < end; ++i) {
        const double d = values[static_cast<std::size_t>(i)] - s.mean;
        squares += d * d;
    }
    const double sd = std::sqrt(squares / static_cast<double>(end));
    s.std = sd > 0 && std::isfinite(sd) ? sd : 1.0;
    return s;
}

std::vector<double> autocorrelation(const std::vector<double>& values, long end, int maxLag) {
    if (end < 0 || static_cast<std::size_t>(end) > values.size())
        throw std::invalid_argument("autocorrelation: end " + std::to_string(end) + " is outside 0.." +
                                    std::to_string(values.size()));
    const long start = std::max(0L, end - static_cast<long>(kMaxPeriodSamples));
    const long n = end - start;
    std::vector<double> r(static_cast<std::size_t>(std::max(0, maxLag)) + 1, 0.0);
    if (n < 3 || maxLag < 0) return r;
    // Least-squares line a + b t over the range, removed.
    double st = 0, sy = 0, stt = 0, sty = 0;
    for (long i = 0; i < n; ++i) {
        const double t = static_cast<double>(i), y = values[static_cast<std::size_t>(start + i)];
        st += t;
        sy += y;
        stt += t * t;
        sty += t * y;
    }
    const double nd = static_cast<double>(n);
    const double denom = nd * stt - st * st;
    const double b = denom != 0 ? (nd * sty - st * sy) / denom : 0.0;
    const double a = (sy - b * st) / nd;
    std::vector<double> z(static_cast<std::size_t>(n));
    double energy = 0;
    for (long i = 0; i < n; ++i) {
        z[static_cast<std::size_t>(i)] = values[static_cast<std::size_t>(start + i)] - (a + b * static_cast<double>(i));
        energy += z[static_cast<std::size_t>(i)] * z[static_cast<std::size_t>(i)];
    }
    if (!(energy > 0)) return r;
    for (long k = 0; k <= maxLag && k < n; ++k) {
        double sum = 0;
        for (long i = k; i < n; ++i) sum += z[static_cast<std::size_t>(i)] * z[static_cast<std::size_t>(i - k)];
        r[static_cast<std::size_t>(k)] = sum / energy;
    }
    return r;
}

int estimatePeriod(const std::vector<double>& values, long end, int maxLag) {
    const long n = std::min<long>(end, static_cast<long>(kMaxPeriodSamples));
    const int top = static_cast<int>(std::min<long>(maxLag, n / 2));
    if (top < 2) return 0;
    const std::vector<double> r = autocorrelation(values, end, top + 1);
    int best = 0;
    double bestR = kMinPeriodAutocorrelation;
    for (int k = 2; k <= top; ++k) {
        const auto i = static_cast<std::size_t>(k);
        const bool peak = r[i] > r[i - 1] && r[i] >= r[i + 1];
        if (peak && r[i] > bestR) {
            best = k;
            bestR = r[i];
        }
    }
    return best;
}

// ---------------------------------------------------------------- baselines and metrics

std::vector<double> lastValueForecast(const std::vector<double>& history, int horizon) {
    if (history.empty()) throw std::invalid_argument("lastValueForecast: empty history");
    return std::vector<double>(static_cast<std::size_t>(std::max(0, horizon)), history.back());
}

std::vector<double> seasonalNaiveForecast(const std::vector<double>& history, int horizon, int period) {
    if (period < 1 || history.size() < static_cast<std::size_t>(period))
        throw std::invalid_argument("seasonalNaiveForecast: period " + std::to_string(period) + " with a history of " +
                                    std::to_string(history.size()));
    std::vector<double> f(static_cast<std::size_t>(std::max(0, horizon)));
    const std::size_t base = history.size() - static_cast<std::size_t>(period);
    for (std::size_t h = 0; h < f.size(); ++h) f[h] = history[base + h % static_cast<std::size_t>(period)];
    return f;
}

std::vector<double> meanForecast(const std::vector<double>& history, int horizon) {
    if (history.empty()) throw std::invalid_argument("meanForecast: empty history");
    double sum = 0;
    for (double v : history) sum += v;
    return std::vector<double>(static_cast<std::size_t>(std::max(0, horizon)), sum / static_cast<double>(history.size()));
}

ForecastErrors forecastErrors(const std::vector<double>& truth, const std::vector<double>& forecast,
                              const std::vector<double>& naive) {
    if (forecast.size() != truth.size() || naive.size() != truth.size())
        throw std::invalid_argument("forecastErrors: " + std::to_string(truth.size()) + " true values, " +
                                    std::to_string(forecast.size()) + " forecasts, " + std::to_string(naive.size()) +
                                    " naive forecasts");
    ForecastErrors e;
    if (truth.empty()) {
        e.mase = std::numeric_limits<double>::quiet_NaN();
        return e;
    }
    double abs = 0, squares = 0, naiveAbs = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        const double d = forecast[i] - truth[i];
        abs += std::fabs(d);
        squares += d * d;
        naiveAbs += std::fabs(naive[i] - truth[i]);
    }
    const double n = static_cast<double>(truth.size());
    e.mae = abs / n;
    e.rmse = std::sqrt(squares / n);
    e.mase = naiveAbs > 0 ? e.mae / (naiveAbs / n) : std::numeric_limits<double>::quiet_NaN();
    return e;
}

// ---------------------------------------------------------------- attention against lag

std::vector<double> lagProfile(const std::vector<float>& cross, int horizon, int context) {
    checkMap(cross, horizon, context);
    std::vector<double> profile(static_cast<std::size_t>(context) + static_cast<std::size_t>(horizon), 0.0);
    for (int h = 0; h < horizon; ++h)
        for (int c = 0; c < context; ++c)
            profile[static_cast<std::size_t>(context - c + h)] +=
                cross[static_cast<std::size_t>(h) * static_cast<std::size_t>(context) + static_cast<std::size_t>(c)];
    for (double& p : profile) p /= horizon;
    return profile;
}

bool isPeriodicLag(long lag, int period, int tolerance) {
    if (period < 1 || tolerance < 0 || lag < 1) return false;
    const long m = lag / period;  // the whole periods below and above the lag, at least one
    for (long k : {m, m + 1})
        if (k >= 1 && std::labs(lag - k * period) <= tolerance) return true;
    return false;
}

PeriodMass periodicMass(const std::vector<float>& cross, int horizon, int context, int period, int tolerance) {
    checkMap(cross, horizon, context);
    PeriodMass m;
    if (period < 1) return m;
    long periodic = 0;
    double mass = 0;
    for (int h = 0; h < horizon; ++h)
        for (int c = 0; c < context; ++c)
            if (isPeriodicLag(static_cast<long>(context - c) + h, period, tolerance)) {
                ++periodic;
                mass += cross[static_cast<std::size_t>(h) * static_cast<std::size_t>(context) + static_cast<std::size_t>(c)];
            }
    m.mass = mass / horizon;
    m.pointShare = static_cast<double>(periodic) / (static_cast<double>(horizon) * context);
    return m;
}

}  // namespace attnlab
