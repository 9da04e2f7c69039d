// World::state_hash() and the names of what it hashes. One walk over the
// state feeds the hash and the names alike, so no hashed value can lack a name.
#include <bit>
#include <string>
#include <type_traits>

#include "carom/physics/state_hasher.hpp"
#include "carom/physics/world.hpp"
#include "world_impl.hpp"

namespace carom::physics {
namespace {

// Calls visit(entity, index, field, value) for each value in hash order;
// entity is "world" (index unused), "disk", "free disk", "static" or
// "free static". Values are bool, uint32, uint64 or double. The moving part
// comes first, then the static part: state_hash() streams both.
template <class Visit>
void walk_moving(const World::Impl& w, Visit&& visit) {
    const WorldDef& d = w.def;
    visit("world", 0, "tick_seconds", d.tick_seconds);
    visit("world", 0, "max_impacts_per_disk", d.max_impacts_per_disk);
    visit("world", 0, "max_impacts_per_disk_average", d.max_impacts_per_disk_average);
    visit("world", 0, "overlap_iterations", d.overlap_iterations);
    visit("world", 0, "overlap_tolerance", d.overlap_tolerance);
    visit("world", 0, "tick", w.tick);

    visit("world", 0, "disk slots", static_cast<std::uint64_t>(w.disks.size()));
    for (std::uint32_t i = 0; i < w.disks.size(); ++i) {
        const detail::DiskSlot& slot = w.disks[i];
        visit("disk", i, "alive", slot.alive);
        visit("disk", i, "generation", slot.generation);
        if (!slot.alive) continue;
        const DiskState& s = slot.state;
        visit("disk", i, "position.x", s.position.x);
        visit("disk", i, "position.y", s.position.y);
        visit("disk", i, "velocity.x", s.velocity.x);
        visit("disk", i, "velocity.y", s.velocity.y);
        visit("disk", i, "radius", s.radius);
        visit("disk", i, "inverse_mass", s.inverse_mass);
        visit("disk", i, "restitution", s.material.restitution);
        visit("disk", i, "friction", s.material.friction);
        visit("disk", i, "filter.layer", s.filter.layer);
        visit("disk", i, "filter.mask", s.filter.mask);
        visit("disk", i, "user_data", s.user_data);
    }
    visit("world", 0, "free disk slots", static_cast<std::uint64_t>(w.free_disks.size()));
    for (std::uint32_t k = 0; k < w.free_disks.size(); ++k)
        visit("free disk", k, "index", w.free_disks[k]);
}

template <class Visit>
void walk_statics(const World::Impl& w, Visit&& visit) {
    visit("world", 0, "static slots", static_cast<std::uint64_t>(w.statics.size()));
    for (std::uint32_t i = 0; i < w.statics.size(); ++i) {
        const detail::StaticSlot& slot = w.statics[i];
        visit("static", i, "alive", slot.alive);
        visit("static", i, "generation", slot.generation);
        if (!slot.alive) continue;
        const StaticState& s = slot.state;
        visit("static", i, "kind", static_cast<std::uint32_t>(s.kind));
        if (s.kind == ShapeKind::box) {
            visit("static", i, "box.center.x", s.box.center.x);
            visit("static", i, "box.center.y", s.box.center.y);
            visit("static", i, "box.half_extents.x", s.box.half_extents.x);
            visit("static", i, "box.half_extents.y", s.box.half_extents.y);
            visit("static", i, "box.axis.x", s.box.axis.x);
            visit("static", i, "box.axis.y", s.box.axis.y);
        } else if (s.kind == ShapeKind::arc) {
            visit("static", i, "arc.center.x", s.arc.center.x);
            visit("static", i, "arc.center.y", s.arc.center.y);
            visit("static", i, "arc.radius", s.arc.radius);
            visit("static", i, "arc.a.x", s.arc.a.x);
            visit("static", i, "arc.a.y", s.arc.a.y);
            visit("static", i, "arc.b.x", s.arc.b.x);
            visit("static", i, "arc.b.y", s.arc.b.y);
            visit("static", i, "bias", s.bias);
        } else if (s.kind == ShapeKind::plane) {
            visit("static", i, "plane.normal.x", s.plane.normal.x);
            visit("static", i, "plane.normal.y", s.plane.normal.y);
            visit("static", i, "plane.offset", s.plane.offset);
        } else {
            visit("static", i, "segment.a.x", s.segment.a.x);
            visit("static", i, "segment.a.y", s.segment.a.y);
            visit("static", i, "segment.b.x", s.segment.b.x);
            visit("static", i, "segment.b.y", s.segment.b.y);
            // Hashed only when set, so worlds of two-sided segments hash as before.
            if (s.bias != 0.0) visit("static", i, "bias", s.bias);
        }
        visit("static", i, "restitution", s.common.material.restitution);
        visit("static", i, "friction", s.common.material.friction);
        visit("static", i, "response", static_cast<std::uint32_t>(s.common.response));
        visit("static", i, "filter.layer", s.common.filter.layer);
        visit("static", i, "filter.mask", s.common.filter.mask);
        visit("static", i, "user_data", s.common.user_data);
    }
    visit("world", 0, "free static slots", static_cast<std::uint64_t>(w.free_statics.size()));
    for (std::uint32_t k = 0; k < w.free_statics.size(); ++k)
        visit("free static", k, "index", w.free_statics[k]);
}

// The hash ignores the names.
struct Feed {
    StateHasher& h;
    template <class T>
    void operator()(const char*, std::uint32_t, const char*, T value) const {
        h.add(value);
    }
};

}  // namespace

std::uint64_t World::state_hash() const {
    StateHasher h;
    walk_moving(*impl_, Feed{h});
    walk_statics(*impl_, Feed{h});
    return h.digest();
}

std::uint64_t World::moving_hash() const {
    StateHasher h;
    walk_moving(*impl_, Feed{h});
    return h.digest();
}

std::uint64_t World::statics_digest() const {
    if (!impl_->statics_digest) {
        StateHasher h;
        walk_statics(*impl_, Feed{h});
        impl_->statics_digest = h.digest();
    }
    return *impl_->statics_digest;
}

std::vector<HashedValue> World::hashed_values() const {
    std::vector<HashedValue> out;
    const auto name = [&out](const char* entity, std::uint32_t index, const char* field,
                             auto value) {
        using T = decltype(value);
        HashedValue v;
        v.entity = entity;
        if (v.entity != "world") {
            v.entity += ' ';
            v.entity += std::to_string(index);
        }
        v.field = field;
        if constexpr (std::is_same_v<T, double>) {
            v.bits = std::bit_cast<std::uint64_t>(value);
            v.real = true;
        } else if constexpr (std::is_same_v<T, bool>) {
            v.bits = value ? 1 : 0;
        } else {
            v.bits = static_cast<std::uint64_t>(value);
        }
        out.push_back(std::move(v));
    };
    walk_moving(*impl_, name);
    walk_statics(*impl_, name);
    return out;
}

}  // namespace carom::physics
