#pragma once
// 2D vector of doubles. Only + - * / and sqrt, which IEEE-754 rounds
// correctly, so results are identical on every conforming platform.
#include <cmath>

namespace carom::physics {

struct Vec2 {
    double x = 0.0;
    double y = 0.0;

    friend constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
    friend constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
    friend constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
    friend constexpr Vec2 operator*(Vec2 a, double s) { return {a.x * s, a.y * s}; }
    friend constexpr Vec2 operator*(double s, Vec2 a) { return {a.x * s, a.y * s}; }
    friend constexpr Vec2 operator/(Vec2 a, double s) { return {a.x / s, a.y / s}; }
    constexpr Vec2& operator+=(Vec2 b) {
        x += b.x;
        y += b.y;
        return *this;
    }
    constexpr Vec2& operator-=(Vec2 b) {
        x -= b.x;
        y -= b.y;
        return *this;
    }
    friend constexpr bool operator==(Vec2 a, Vec2 b) = default;
};

constexpr double dot(Vec2 a, Vec2 b) {
    return a.x * b.x + a.y * b.y;
}
constexpr double cross(Vec2 a, Vec2 b) {
    return a.x * b.y - a.y * b.x;
}
// Rotates 90 degrees counter-clockwise.
constexpr Vec2 perp(Vec2 a) {
    return {-a.y, a.x};
}
constexpr double length_squared(Vec2 a) {
    return dot(a, a);
}
inline double length(Vec2 a) {
    return std::sqrt(dot(a, a));
}
inline bool is_finite(Vec2 a) {
    return std::isfinite(a.x) && std::isfinite(a.y);
}

// Unit vector along a; returns `fallback` when a has zero length.
inline Vec2 normalize_or(Vec2 a, Vec2 fallback) {
    const double len = length(a);
    return len > 0.0 ? a / len : fallback;
}

}  // namespace carom::physics
