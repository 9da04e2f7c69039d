#include "carom/linksim/link_spec.hpp"

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <set>

#include "carom/number_text.hpp"

namespace carom::linksim {
namespace {

struct Range {
    double low, high;
};

std::optional<double> number(std::string_view text) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::string format(double value) {
    return number_text(value);
}

// Appends rather than operator+ (gcc 12 warns falsely on "literal" + std::string).
std::string join(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (const std::string_view p : parts)
        out += p;
    return out;
}

constexpr std::string_view kKeys = "loss, latency, jitter, dup, reorder, rate, queue, seed";

}  // namespace

bool LinkSpec::active() const {
    return loss_percent > 0.0 || latency_ms > 0.0 || jitter_ms > 0.0 || duplicate_percent > 0.0 ||
           reorder_percent > 0.0 || rate_kbit > 0.0;
}

Result<LinkSpec> parse_link_spec(std::string_view text) {
    if (text.empty())
        return fail(join({"empty link spec (expected key=value,... with keys ", kKeys, ")"}));
    LinkSpec spec;
    std::set<std::string, std::less<>> seen;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view part = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        if (comma != std::string_view::npos && text.empty()) return fail("link spec ends with ','");
        const std::size_t eq = part.find('=');
        if (part.empty() || eq == std::string_view::npos || eq == 0 || eq + 1 == part.size())
            return fail(join({"'", part, "' is not key=value"}));
        const std::string_view key = part.substr(0, eq);
        const std::string_view value = part.substr(eq + 1);
        if (!seen.emplace(key).second) return fail(join({"'", key, "' given twice"}));

        if (key == "seed") {
            std::uint64_t seed = 0;
            const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
            if (ec != std::errc{} || ptr != value.data() + value.size())
                return fail(join({"seed=", value, ": not an unsigned 64-bit integer"}));
            spec.seed = seed;
            continue;
        }
        double* field = nullptr;
        Range range{0.0, 0.0};
        const char* unit = "";
        if (key == "loss") {
            field = &spec.loss_percent, range = {0, 100}, unit = "%";
        } else if (key == "dup") {
            field = &spec.duplicate_percent, range = {0, 100}, unit = "%";
        } else if (key == "reorder") {
            field = &spec.reorder_percent, range = {0, 100}, unit = "%";
        } else if (key == "latency") {
            field = &spec.latency_ms, range = {0, 60000}, unit = " ms";
        } else if (key == "jitter") {
            field = &spec.jitter_ms, range = {0, 60000}, unit = " ms";
        } else if (key == "queue") {
            field = &spec.queue_ms, range = {0, 60000}, unit = " ms";
        } else if (key == "rate") {
            field = &spec.rate_kbit, range = {0, 1e7}, unit = " kbit/s";
        } else {
            return fail(join({"unknown key '", key, "' (known: ", kKeys, ")"}));
        }
        const std::optional<double> v = number(value);
        if (!v) return fail(join({key, "=", value, ": not a number"}));
        if (*v < range.low || *v > range.high)
            return fail(join({key, "=", value, ": outside [", format(range.low), ", ",
                              format(range.high), "]", unit}));
        if (key == "rate" && *v > 0.0 && *v < 1.0)
            return fail(join({"rate=", value, ": below 1 kbit/s (0 turns the cap off)"}));
        *field = *v;
    }
    return spec;
}

std::string to_string(const LinkSpec& s) {
    std::string out = "loss=" + format(s.loss_percent) + ",latency=" + format(s.latency_ms) +
                      ",jitter=" + format(s.jitter_ms) + ",dup=" + format(s.duplicate_percent) +
                      ",reorder=" + format(s.reorder_percent) + ",rate=" + format(s.rate_kbit) +
                      ",queue=" + format(s.queue_ms);
    if (s.seed) out += ",seed=" + std::to_string(*s.seed);
    return out;
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
    // splitmix64's finaliser over the pair.
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace carom::linksim
