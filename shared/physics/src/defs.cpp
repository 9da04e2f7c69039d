#include "carom/physics/defs.hpp"

#include <cmath>
#include <string>

#include "carom/number_text.hpp"
#include "carom/physics/domain.hpp"
#include "carom/result.hpp"

namespace carom::physics {
namespace {

// Shortest text that reads back as the same double.
std::string num(double v) {
    return number_text(v);
}

std::string fmt_vec(Vec2 v) {
    std::string text = "(";
    text += num(v.x);
    text += ", ";
    text += num(v.y);
    text += ")";
    return text;
}

// "what v is outside [lo, hi] unit" (see domain.hpp); empty when inside.
Status outside(const std::string& what, double v, double lo, double hi, const char* unit) {
    if (v >= lo && v <= hi) return {};
    return fail(what + " " + num(v) + " is outside [" + num(lo) + ", " + num(hi) + "] " + unit +
                " (the physics domain)");
}

// Each coordinate of a point within ±kMaxCoordinate.
Status check_point(const std::string& what, Vec2 p) {
    constexpr double kMax = domain::kMaxCoordinate;
    if (auto e = outside(what + ".x", p.x, -kMax, kMax, "units"); !e) return e;
    return outside(what + ".y", p.y, -kMax, kMax, "units");
}

Status check_material(const Material& m) {
    if (!(m.restitution >= 0.0 && m.restitution <= 1.0))
        return fail("material.restitution must be in [0, 1], got " + num(m.restitution));
    if (!(m.friction >= 0.0) || !std::isfinite(m.friction))
        return fail("material.friction must be finite and >= 0, got " + num(m.friction));
    return {};
}

// A one-sided wall's depth: finite, within the coordinate range (0: two-sided).
Status check_bias(const std::string& what, double bias) {
    return outside(what + " bias", bias, -domain::kMaxCoordinate, domain::kMaxCoordinate, "units");
}

}  // namespace

Status validate(const DiskDef& def) {
    if (!is_finite(def.position))
        return fail("disk position must be finite, got " + fmt_vec(def.position));
    if (!is_finite(def.velocity))
        return fail("disk velocity must be finite, got " + fmt_vec(def.velocity));
    if (!(def.radius > 0.0) || !std::isfinite(def.radius))
        return fail("disk radius must be finite and > 0, got " + num(def.radius));
    if (!(def.mass > 0.0))
        return fail("disk mass must be > 0 (or kInfiniteMass), got " + num(def.mass));
    if (auto e = check_point("disk position", def.position); !e) return e;
    if (auto e =
            outside("disk radius", def.radius, domain::kMinRadius, domain::kMaxRadius, "units");
        !e)
        return e;
    if (auto e = outside("disk speed", std::hypot(def.velocity.x, def.velocity.y), 0.0,
                         domain::kMaxSpeed, "units/s");
        !e)
        return e;
    return check_material(def.material);
}

Status validate(const BoxDef& def) {
    const Box& b = def.box;
    if (!is_finite(b.center)) return fail("box center must be finite, got " + fmt_vec(b.center));
    if (!is_finite(b.half_extents) || !(b.half_extents.x > 0.0) || !(b.half_extents.y > 0.0))
        return fail("box half_extents must be finite and > 0 (an inverted box is refused), got " +
                    fmt_vec(b.half_extents));
    if (!is_finite(b.axis) || length_squared(b.axis) == 0.0)
        return fail("box axis must be a finite non-zero vector, got " + fmt_vec(b.axis));
    if (auto e = check_point("box center", b.center); !e) return e;
    if (auto e = check_point("box half_extents", b.half_extents); !e) return e;
    return check_material(def.common.material);
}

Status validate(const SegmentDef& def) {
    const Segment& s = def.segment;
    if (!is_finite(s.a) || !is_finite(s.b))
        return fail("segment end points must be finite, got " + fmt_vec(s.a) + " and " +
                    fmt_vec(s.b));
    if (s.a == s.b) return fail("segment must have non-zero length, both ends are " + fmt_vec(s.a));
    if (auto e = check_point("segment a", s.a); !e) return e;
    if (auto e = check_point("segment b", s.b); !e) return e;
    if (auto e = check_bias("segment", def.bias); !e) return e;
    return check_material(def.common.material);
}

Status validate(const ArcDef& def) {
    const Arc& arc = def.arc;
    if (!is_finite(arc.center) || !is_finite(arc.a) || !is_finite(arc.b))
        return fail("arc center and end points must be finite, got " + fmt_vec(arc.center) + ", " +
                    fmt_vec(arc.a) + " and " + fmt_vec(arc.b));
    if (auto e = check_point("arc center", arc.center); !e) return e;
    if (auto e = check_point("arc a", arc.a); !e) return e;
    if (auto e = check_point("arc b", arc.b); !e) return e;
    if (auto e =
            outside("arc radius", arc.radius, domain::kMinRadius, domain::kMaxCoordinate, "units");
        !e)
        return e;
    if (arc.a == arc.b) return fail("arc must have distinct ends, both are " + fmt_vec(arc.a));
    // The ends on the circle: off it by more than rounding, the shape is not the arc meant.
    for (const Vec2 end : {arc.a, arc.b}) {
        const double off = std::abs(length(end - arc.center) - arc.radius);
        if (!(off <= 1e-6 * arc.radius))
            return fail("arc end " + fmt_vec(end) + " lies " + num(off) +
                        " units off its circle (radius " + num(arc.radius) + " around " +
                        fmt_vec(arc.center) + ")");
    }
    if (auto e = check_bias("arc", def.bias); !e) return e;
    return check_material(def.common.material);
}

Status validate(const PlaneDef& def) {
    const Plane& p = def.plane;
    if (!is_finite(p.normal) || length_squared(p.normal) == 0.0)
        return fail("plane normal must be a finite non-zero vector, got " + fmt_vec(p.normal));
    if (auto e = outside("plane offset", p.offset, -domain::kMaxCoordinate, domain::kMaxCoordinate,
                         "units");
        !e)
        return e;
    return check_material(def.common.material);
}

Status validate(const WorldDef& def) {
    if (!(def.tick_seconds > 0.0) || !std::isfinite(def.tick_seconds))
        return fail("world tick_seconds must be finite and > 0, got " + num(def.tick_seconds));
    if (auto e = outside("world tick_seconds", def.tick_seconds, 0.0, domain::kMaxTickSeconds, "s");
        !e)
        return e;
    if (def.max_impacts_per_disk == 0) return fail("world max_impacts_per_disk must be >= 1");
    if (def.max_impacts_per_disk_average == 0)
        return fail("world max_impacts_per_disk_average must be >= 1");
    if (!(def.overlap_tolerance >= 0.0) || !std::isfinite(def.overlap_tolerance))
        return fail("world overlap_tolerance must be finite and >= 0, got " +
                    num(def.overlap_tolerance));
    return {};
}

}  // namespace carom::physics
