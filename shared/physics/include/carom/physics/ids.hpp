#pragma once
// Handles that stay valid while the world's storage moves: a slot index plus
// the slot's generation, so a handle to a destroyed shape is recognised as
// stale instead of silently pointing at its successor.
#include <compare>
#include <cstdint>

namespace carom::physics {

struct BodyId {
    std::uint32_t index = UINT32_MAX;
    std::uint32_t generation = 0;
    friend constexpr auto operator<=>(const BodyId&, const BodyId&) = default;
};

struct StaticId {
    std::uint32_t index = UINT32_MAX;
    std::uint32_t generation = 0;
    friend constexpr auto operator<=>(const StaticId&, const StaticId&) = default;
};

enum class ShapeKind : std::uint8_t { disk, box, segment, arc, plane };

// Either a dynamic disk or a static shape, as found by a query or a contact.
struct ShapeRef {
    ShapeKind kind = ShapeKind::disk;
    std::uint32_t index = UINT32_MAX;
    std::uint32_t generation = 0;

    constexpr bool is_disk() const { return kind == ShapeKind::disk; }
    constexpr BodyId body() const { return {index, generation}; }
    constexpr StaticId static_shape() const { return {index, generation}; }
    friend constexpr auto operator<=>(const ShapeRef&, const ShapeRef&) = default;
};

}  // namespace carom::physics
