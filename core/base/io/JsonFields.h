#pragma once
// Reading one JSON object's members for base's own file readers (the model configs, the checkpoint
// metadata): each failure is a ConfigError "<kind> config: <why>" naming the key. Internal to
// core/base: it includes nlohmann/json, which attnlab_base links privately.
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "base/InputError.h"

namespace attnlab::json_fields {

[[noreturn]] inline void malformed(const char* kind, const std::string& why) {
    throw ConfigError(std::string(kind) + " config: " + why);
}

// The object a config's JSON text holds, its "task" checked: ConfigError "<kind> config: invalid
// JSON", "not a JSON object", "'task' is missing" or "'task' is not \"TASK\"".
inline nlohmann::json parseConfig(const std::string& text, const char* kind, const char* task) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        malformed(kind, "invalid JSON");
    }
    if (!j.is_object()) malformed(kind, "not a JSON object");
    const auto it = j.find("task");
    if (it == j.end()) malformed(kind, "'task' is missing");
    if (!it->is_string() || it->get<std::string>() != task) malformed(kind, std::string("'task' is not \"") + task + "\"");
    return j;
}

// A config's two-valued choice: its names in JSON and on the command line; parse throws
// ConfigError "unknown WHAT 'S' (expected one of: A, B)".
template <typename E>
struct TwoNames {
    const char* what;  // in messages
    E first;
    const char* firstName;
    E second;
    const char* secondName;
    bool known(E e) const { return e == first || e == second; }
    std::string name(E e) const { return e == second ? secondName : firstName; }
    E parse(const std::string& s) const {
        if (s == firstName) return first;
        if (s == secondName) return second;
        throw ConfigError("unknown " + std::string(what) + " '" + s + "' (expected one of: " + firstName + ", " +
                          secondName + ")");
    }
};

struct Reader {
    const nlohmann::json& j;
    const char* kind;  // "forecast", "classifier", ...

    [[noreturn]] void malformed(const std::string& why) const { json_fields::malformed(kind, why); }
    const nlohmann::json& member(const char* key) const {
        auto it = j.find(key);
        if (it == j.end()) malformed(std::string("'") + key + "' is missing");
        return *it;
    }
    std::int64_t integer(const char* key, std::int64_t low, std::int64_t high) const {
        const nlohmann::json& v = member(key);
        if (!v.is_number_integer()) malformed(std::string("'") + key + "' must be an integer");
        const auto x = v.get<std::int64_t>();
        if (x < low || x > high) malformed(std::string("'") + key + "' is out of range");
        return x;
    }
    // A finite number of magnitude at most 1e6.
    float real(const char* key) const {
        const nlohmann::json& v = member(key);
        if (!v.is_number()) malformed(std::string("'") + key + "' must be a number");
        const double x = v.get<double>();
        if (!std::isfinite(x) || std::fabs(x) > 1e6) malformed(std::string("'") + key + "' is out of range");
        return static_cast<float>(x);
    }
    bool boolean(const char* key) const {
        const nlohmann::json& v = member(key);
        if (!v.is_boolean()) malformed(std::string("'") + key + "' must be true or false");
        return v.get<bool>();
    }
    // A string member parsed by `parse` (which throws ConfigError naming the accepted values).
    template <typename Parse>
    auto choice(const char* key, Parse parse) const {
        const nlohmann::json& v = member(key);
        if (!v.is_string()) malformed(std::string("'") + key + "' must be a string");
        try {
            return parse(v.get<std::string>());
        } catch (const ConfigError& e) {
            malformed(e.what());
        }
    }
};

}  // namespace attnlab::json_fields
