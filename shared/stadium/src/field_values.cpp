#include "field_values.hpp"

#include <cmath>

namespace carom::stadium::detail {

using game::Vec2;
using nlohmann::json;

Result<double> number(const StadiumObject& o, const std::string& key, double fallback) {
    const json* v = o.get(key);
    if (v == nullptr) return fallback;
    if (!v->is_number()) return refuse(o.field(key), "must be a number");
    const double value = v->get<double>();
    if (!std::isfinite(value)) return refuse(o.field(key), "must be finite");
    return value;
}

Status read_numbers(const StadiumObject& o, std::initializer_list<NumberField> fields) {
    for (const NumberField& f : fields) {
        const auto value = number(o, f.key, f.fallback);
        if (!value) return value.error();
        f.out = *value;
    }
    return {};
}

Result<Vec2> point(const json& value, const std::string& field) {
    if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number())
        return refuse(field, "must be [x, y]");
    const Vec2 p{value[0].get<double>(), value[1].get<double>()};
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return refuse(field, "must be finite");
    return p;
}

Status absent_or_zero(const StadiumObject& o, const std::string& key,
                      const std::string& otherwise) {
    const json* v = o.get(key);
    if (v == nullptr) return {};
    const auto value = point(*v, o.field(key));
    if (!value) return value.error();
    if (value->x != 0.0 || value->y != 0.0) return refuse(o.field(key), otherwise);
    return {};
}

Result<Colour> colour(const StadiumObject& o, std::uint32_t fallback) {
    const json* v = o.get("color");
    if (v == nullptr) return Colour{fallback};
    if (v->is_string()) {
        const std::string text = v->get<std::string>();
        if (text == "transparent") return Colour{fallback, true};
        if (text.empty() || text.size() > 6) return refuse(o.field("color"), "must be RRGGBB");
        std::uint32_t rgb = 0;
        for (const char c : text) {
            const int digit = c >= '0' && c <= '9'   ? c - '0'
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                     : -1;
            if (digit < 0) return refuse(o.field("color"), "must be RRGGBB");
            rgb = rgb * 16 + static_cast<std::uint32_t>(digit);
        }
        return Colour{rgb};
    }
    if (v->is_array() && v->size() == 3) {
        std::uint32_t rgb = 0;
        for (const json& c : *v) {
            if (!c.is_number_integer() || c.get<int>() < 0 || c.get<int>() > 255)
                return refuse(o.field("color"), "must be [r, g, b], each 0 to 255");
            rgb = rgb * 256 + c.get<std::uint32_t>();
        }
        return Colour{rgb};
    }
    return refuse(o.field("color"), "must be \"RRGGBB\", \"transparent\" or [r, g, b]");
}

}  // namespace carom::stadium::detail
