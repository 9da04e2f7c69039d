#include "carom/physics/world.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "carom/number_text.hpp"
#include "carom/physics/domain.hpp"
#include "smooth_corners.hpp"
#include "world_impl.hpp"

namespace carom::physics {
namespace {

void require_valid(const Status& valid) {
    if (!valid) throw std::invalid_argument(valid.error().message);
}

// Takes a slot from the free list (most recently freed first) or appends one.
template <class Slot>
std::uint32_t allocate_slot(std::vector<Slot>& slots, std::vector<std::uint32_t>& free_list) {
    if (!free_list.empty()) {
        const std::uint32_t index = free_list.back();
        free_list.pop_back();
        return index;
    }
    slots.emplace_back();
    return static_cast<std::uint32_t>(slots.size() - 1);
}

std::string num(double v) {
    return number_text(v);
}

// A position inside the coordinate domain (see domain.hpp).
void require_in_domain(const char* what, Vec2 position) {
    constexpr double kMax = domain::kMaxCoordinate;
    if (!(std::abs(position.x) <= kMax && std::abs(position.y) <= kMax))
        throw std::invalid_argument(std::string(what) + ": position (" + num(position.x) + ", " +
                                    num(position.y) + ") is outside [-" + num(kMax) + ", " +
                                    num(kMax) + "]² units (the physics domain)");
}

// A velocity no faster than a disk of `radius` may go in this world (domain::max_speed).
void require_in_domain(const char* what, Vec2 velocity, double radius, double tick_seconds) {
    const double limit = domain::max_speed(radius, tick_seconds);
    const double speed = std::hypot(velocity.x, velocity.y);
    if (!(speed <= limit))
        throw std::invalid_argument(std::string(what) + ": speed " + num(speed) +
                                    " is outside [0, " + num(limit) +
                                    "] units/s (the physics domain for radius " + num(radius) +
                                    " and a tick of " + num(tick_seconds) + " s)");
}

double inverse_of(double mass) {
    return mass == kInfiniteMass ? 0.0 : 1.0 / mass;
}

}  // namespace

World::World(const WorldDef& def) : impl_(std::make_unique<Impl>()) {
    require_valid(validate(def));
    impl_->def = def;
}
World::~World() = default;
World::World(const World& other) : impl_(std::make_unique<Impl>(*other.impl_)) {
    impl_->static_grid_dirty = true;
    impl_->scratch.broadphase.neighbourhood_valid = false;
}
World& World::operator=(const World& other) {
    if (this != &other) {
        impl_ = std::make_unique<Impl>(*other.impl_);
        impl_->static_grid_dirty = true;
        impl_->scratch.broadphase.neighbourhood_valid = false;
    }
    return *this;
}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

BodyId World::create_disk(const DiskDef& def) {
    require_valid(validate(def));
    require_in_domain("create_disk", def.velocity, def.radius, impl_->def.tick_seconds);
    const std::uint32_t index = allocate_slot(impl_->disks, impl_->free_disks);
    detail::DiskSlot& slot = impl_->disks[index];
    slot.alive = true;
    slot.state = DiskState{def.position, def.velocity, def.radius,   inverse_of(def.mass),
                           def.material, def.filter,   def.user_data};
    impl_->scratch.broadphase.neighbourhood_valid = false;
    return {index, slot.generation};
}

StaticId World::create_box(const BoxDef& def) {
    require_valid(validate(def));
    const std::uint32_t index = allocate_slot(impl_->statics, impl_->free_statics);
    detail::StaticSlot& slot = impl_->statics[index];
    slot.alive = true;
    Box box = def.box;
    box.axis = box.axis / length(box.axis);
    slot.state = StaticState{ShapeKind::box, box, Segment{}, def.common};
    slot.bounds = bounds_of(box);
    impl_->static_grid_dirty = true;
    impl_->statics_digest.reset();
    impl_->scratch.broadphase.neighbourhood_valid = false;
    return {index, slot.generation};
}

StaticId World::create_segment(const SegmentDef& def) {
    require_valid(validate(def));
    const std::uint32_t index = allocate_slot(impl_->statics, impl_->free_statics);
    detail::StaticSlot& slot = impl_->statics[index];
    slot.alive = true;
    slot.state =
        StaticState{ShapeKind::segment, Box{}, def.segment, def.common, Arc{}, Plane{}, def.bias};
    slot.bounds = bounds_of(def.segment);
    impl_->static_grid_dirty = true;
    impl_->statics_digest.reset();
    impl_->scratch.broadphase.neighbourhood_valid = false;
    return {index, slot.generation};
}

StaticId World::create_arc(const ArcDef& def) {
    require_valid(validate(def));
    const std::uint32_t index = allocate_slot(impl_->statics, impl_->free_statics);
    detail::StaticSlot& slot = impl_->statics[index];
    slot.alive = true;
    slot.state =
        StaticState{ShapeKind::arc, Box{}, Segment{}, def.common, def.arc, Plane{}, def.bias};
    slot.bounds = bounds_of(def.arc);
    impl_->static_grid_dirty = true;
    impl_->statics_digest.reset();
    impl_->scratch.broadphase.neighbourhood_valid = false;
    return {index, slot.generation};
}

StaticId World::create_plane(const PlaneDef& def) {
    require_valid(validate(def));
    const std::uint32_t index = allocate_slot(impl_->statics, impl_->free_statics);
    detail::StaticSlot& slot = impl_->statics[index];
    slot.alive = true;
    Plane plane = def.plane;
    plane.normal = plane.normal / length(plane.normal);
    slot.state = StaticState{ShapeKind::plane, Box{}, Segment{}, def.common, Arc{}, plane, 0.0};
    // Near everything: the static index keeps planes apart from its grid.
    constexpr double kEverywhere = 2.0 * domain::kMaxCoordinate;
    slot.bounds = {{-kEverywhere, -kEverywhere}, {kEverywhere, kEverywhere}};
    impl_->static_grid_dirty = true;
    impl_->statics_digest.reset();
    impl_->scratch.broadphase.neighbourhood_valid = false;
    return {index, slot.generation};
}

void World::destroy(BodyId id) {
    if (!valid(id)) throw std::invalid_argument("destroy: stale or invalid disk handle");
    detail::DiskSlot& slot = impl_->disks[id.index];
    slot = detail::DiskSlot{DiskState{}, slot.generation + 1, false};
    impl_->scratch.broadphase.neighbourhood_valid = false;
    impl_->free_disks.push_back(id.index);
}

void World::destroy(StaticId id) {
    if (!valid(id)) throw std::invalid_argument("destroy: stale or invalid static shape handle");
    detail::StaticSlot& slot = impl_->statics[id.index];
    slot = detail::StaticSlot{StaticState{}, Aabb{}, slot.generation + 1, false, 0};
    impl_->free_statics.push_back(id.index);
    impl_->static_grid_dirty = true;
    impl_->statics_digest.reset();
    impl_->scratch.broadphase.neighbourhood_valid = false;
}

bool World::valid(BodyId id) const {
    return id.index < impl_->disks.size() && impl_->disks[id.index].alive &&
           impl_->disks[id.index].generation == id.generation;
}

bool World::valid(StaticId id) const {
    return id.index < impl_->statics.size() && impl_->statics[id.index].alive &&
           impl_->statics[id.index].generation == id.generation;
}

const DiskState& World::disk(BodyId id) const {
    if (!valid(id)) throw std::invalid_argument("disk: stale or invalid disk handle");
    return impl_->disks[id.index].state;
}

const StaticState& World::static_shape(StaticId id) const {
    if (!valid(id)) throw std::invalid_argument("static_shape: stale or invalid handle");
    return impl_->statics[id.index].state;
}

void World::set_position(BodyId id, Vec2 position) {
    if (!is_finite(position)) throw std::invalid_argument("set_position: position must be finite");
    if (!valid(id)) throw std::invalid_argument("set_position: stale or invalid disk handle");
    require_in_domain("set_position", position);
    impl_->disks[id.index].state.position = position;
}

void World::set_velocity(BodyId id, Vec2 velocity) {
    if (!is_finite(velocity)) throw std::invalid_argument("set_velocity: velocity must be finite");
    if (!valid(id)) throw std::invalid_argument("set_velocity: stale or invalid disk handle");
    require_in_domain("set_velocity", velocity, impl_->disks[id.index].state.radius,
                      impl_->def.tick_seconds);
    impl_->disks[id.index].state.velocity = velocity;
}

void World::apply_impulse(BodyId id, Vec2 impulse) {
    if (!is_finite(impulse)) throw std::invalid_argument("apply_impulse: impulse must be finite");
    if (!valid(id)) throw std::invalid_argument("apply_impulse: stale or invalid disk handle");
    DiskState& d = impl_->disks[id.index].state;
    const Vec2 velocity = d.velocity + impulse * d.inverse_mass;
    if (!is_finite(velocity)) throw std::invalid_argument("apply_impulse: velocity would overflow");
    require_in_domain("apply_impulse", velocity, d.radius, impl_->def.tick_seconds);
    d.velocity = velocity;
}

void World::set_filter(BodyId id, Filter filter) {
    if (!valid(id)) throw std::invalid_argument("set_filter: stale or invalid disk handle");
    impl_->disks[id.index].state.filter = filter;
}

void World::set_tick(std::uint64_t tick) {
    impl_->tick = tick;
}

void World::step() {
    impl_->contacts.clear();
    impl_->stats = StepStats{};
    if (impl_->static_grid_dirty) impl_->rebuild_static_grid();
    if (detail::run_sweep(*impl_)) detail::resolve_overlaps(*impl_);
    ++impl_->tick;
}

std::span<const Contact> World::contacts() const {
    return impl_->contacts;
}
const World::StepStats& World::last_step_stats() const {
    return impl_->stats;
}
std::uint64_t World::tick() const {
    return impl_->tick;
}
const WorldDef& World::def() const {
    return impl_->def;
}

std::vector<BodyId> World::disks() const {
    std::vector<BodyId> ids;
    for (std::uint32_t i = 0; i < impl_->disks.size(); ++i) {
        if (impl_->disks[i].alive) ids.push_back({i, impl_->disks[i].generation});
    }
    return ids;
}

std::vector<StaticId> World::statics() const {
    std::vector<StaticId> ids;
    for (std::uint32_t i = 0; i < impl_->statics.size(); ++i) {
        if (impl_->statics[i].alive) ids.push_back({i, impl_->statics[i].generation});
    }
    return ids;
}

void World::Impl::rebuild_static_grid() {
    // Cells about a quarter of the typical static's size: long walls span a
    // few cells, a disk's query box usually touches one or two.
    static_boxes.resize(statics.size());
    static_present.assign(statics.size(), 0u);
    static_grid.unbounded.clear();
    double extent_sum = 0.0;
    std::size_t count = 0;
    for (std::uint32_t i = 0; i < statics.size(); ++i) {
        if (!statics[i].alive) continue;
        const Aabb& b = statics[i].bounds;
        static_boxes[i] = b;
        if (statics[i].state.kind == ShapeKind::plane) {
            static_grid.unbounded.push_back(i);
            continue;
        }
        static_present[i] = 1;
        extent_sum += std::max(b.max.x - b.min.x, b.max.y - b.min.y);
        ++count;
    }
    const double cell =
        count == 0 ? 1.0 : std::max(extent_sum / static_cast<double>(count) / 4.0, 1e-3);
    static_grid.grid.build(static_boxes, static_present, cell);
    static_grid_dirty = false;
    const detail::SeamIndex seams(statics);
    for (std::uint32_t i = 0; i < statics.size(); ++i) {
        if (!statics[i].alive) continue;
        statics[i].seam_corners = seams.seam_corners(i);
    }
}

}  // namespace carom::physics
