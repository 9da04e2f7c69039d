// The sweep: event-driven continuous collision within one tick.
//
// Each disk keeps its own clock. Candidates come from the broadphase
// (broadphase.hpp) over swept bounds; every pair whose time of impact falls inside the tick
// becomes an event in a min-heap ordered by (time, disk, kind, other), a
// total order, so the same world always resolves the same impacts in the
// same order. Resolving an event advances its disks to that time, applies
// the response and recomputes their events; events computed from an older
// path are recognised by version numbers and skipped.
#include <algorithm>
#include <cmath>
#include <span>

#include "broadphase.hpp"
#include "carom/physics/domain.hpp"
#include "carom/physics/proximity.hpp"
#include "carom/physics/toi.hpp"
#include "lanes.hpp"
#include "response.hpp"
#include "static_shape.hpp"
#include "world_impl.hpp"

namespace carom::physics::detail {
namespace {

// std::min and std::max by value: through references, compilers may branch
// where the order is a coin flip (which way a disk moves). Same results.
double smaller(double a, double b) {
    return b < a ? b : a;
}
double larger(double a, double b) {
    return a < b ? b : a;
}

class Sweep {
  public:
    explicit Sweep(World::Impl& world)
        : w_(world),
          s_(world.scratch),
          broadphase_(world.scratch.broadphase, world.static_grid, world.static_boxes),
          dt_(world.def.tick_seconds) {}

    bool run() {
        start();
        std::uint32_t resolved = 0;
        const std::uint32_t budget = tick_budget();
        while (!s_.events.empty()) {
            const SweepEvent e = s_.events.pop();
            if (!s_.events.empty()) prefetch(s_.events.top());
            if (is_stale(e)) continue;
            if (resolved == budget) {
                stop_everything_at(e.t);
                w_.stats.tick_budget_exhausted = true;
                break;
            }
            resolve(e);
            ++resolved;
        }
        w_.stats.impacts = resolved;
        finish();
        return overlap_seen_ || w_.stats.parked_disks > 0 || w_.stats.tick_budget_exhausted;
    }

  private:
    // Starts loading what resolving `e` reads, while the event before it is
    // resolved: the disks of an event are anywhere in memory.
    void prefetch(const SweepEvent& e) const {
        __builtin_prefetch(&s_.bodies[e.a]);
        __builtin_prefetch(&w_.disks[e.a]);
        if (e.kind == EventKind::disk_disk) {
            __builtin_prefetch(&s_.bodies[e.b]);
            __builtin_prefetch(&w_.disks[e.b]);
        }
    }

    std::uint32_t tick_budget() const {
        const std::size_t per_tick =
            std::size_t{w_.def.max_impacts_per_disk_average} * w_.disks.size();
        return static_cast<std::uint32_t>(std::clamp<std::size_t>(per_tick, 1024, UINT32_MAX));
    }

    // Every disk's path for the whole tick, then the first events among
    // the candidates the broadphase finds for them.
    void start() {
        const std::size_t n = w_.disks.size();
        s_.bodies.resize(n);
        broadphase_.resize_for(n);
        s_.events.reset(dt_);
        for (std::uint32_t i = 0; i < n; ++i) {
            const DiskSlot& slot = w_.disks[i];
            // Field by field: a whole-struct assignment went through a stack
            // temporary whose mixed-size stores stall the copy.
            SweepBody& b = s_.bodies[i];
            b.position = slot.state.position;
            b.velocity = slot.state.velocity;
            b.t = 0.0;
            b.radius = slot.state.radius;
            b.filter = slot.state.filter;
            b.version = 0;
            b.active = slot.alive;
            b.parked = false;
            b.immovable = slot.state.inverse_mass == 0.0;
            if (slot.alive) broadphase_.swept(i) = swept_bounds(i);
        }
        broadphase_.start(s_.bodies, dt_);
        broadphase_.first_candidates(
            s_.bodies,
            [&](std::uint32_t i, std::uint32_t j) {
                return may_meet_at_start(s_.bodies[i], s_.bodies[j]);
            },
            [&](std::uint32_t i, std::uint32_t j) { schedule_pair(i, j); },
            [&](std::uint32_t i, std::uint32_t j) { return may_meet(s_.bodies[i], s_.bodies[j]); },
            [&](std::uint32_t i, std::uint32_t j) { schedule_pair(i, j); },
            [&](std::uint32_t i, std::uint32_t s) { schedule_static(i, s); });
    }

    // Bounds of disk i from its clock to the end of the tick, padded so that
    // rounding in the advance can never move it outside.
    Aabb swept_bounds(std::uint32_t i) const {
        const SweepBody& b = s_.bodies[i];
        const Vec2 end = b.position + b.velocity * (dt_ - b.t);
        const double pad =
            b.radius + 1e-9 * (1.0 + std::abs(b.position.x) + std::abs(b.position.y) +
                               std::abs(end.x) + std::abs(end.y));
        return {{smaller(b.position.x, end.x) - pad, smaller(b.position.y, end.y) - pad},
                {larger(b.position.x, end.x) + pad, larger(b.position.y, end.y) + pad}};
    }

    Vec2 position_at(std::uint32_t i, double t) const {
        const SweepBody& b = s_.bodies[i];
        return b.position + b.velocity * (t - b.t);
    }

    void advance(std::uint32_t i, double t) {
        SweepBody& b = s_.bodies[i];
        b.position = position_at(i, t);
        b.t = t;
    }

    // Whether two disks, from the later of their clocks, may meet before the
    // tick ends: if not, toi_disk_disk finds nothing (and nor can an overlap
    // be seen). Without branches, so that it can filter many pairs cheaply;
    // from the very values schedule_pair works with.
    bool may_meet(const SweepBody& x, const SweepBody& y) const {
        const double t0 = std::max(x.t, y.t);
        const Lanes x_velocity = Lanes::load(x.velocity);
        const Lanes y_velocity = Lanes::load(y.velocity);
        const Lanes d = (Lanes::load(x.position) + x_velocity * Lanes::splat(t0 - x.t)) -
                        (Lanes::load(y.position) + y_velocity * Lanes::splat(t0 - y.t));
        return may_meet(d, x_velocity - y_velocity, x.radius + y.radius, dt_ - t0);
    }

    // may_meet before any disk has moved, when every clock reads 0: the
    // advance to the later clock adds velocity * 0, which changes nothing.
    bool may_meet_at_start(const SweepBody& x, const SweepBody& y) const {
        return may_meet(Lanes::load(x.position) - Lanes::load(y.position),
                        Lanes::load(x.velocity) - Lanes::load(y.velocity), x.radius + y.radius,
                        dt_);
    }

    // Centres d apart, relative velocity v, touching at distance `reach`:
    // they may meet if they touch, or close in from near enough that
    // |vx| + |vy| >= |v| covers the gap in the time left. The range allows
    // a relative 1e-6 over the exact bound, far beyond what rounding moves a
    // time of impact.
    static bool may_meet(Lanes d, Lanes v, double reach, double time_left) {
        const double distance_squared = dot(d, d);
        const double farthest = reach + v.abs().sum() * time_left;
        const bool touching = distance_squared <= reach * reach;
        const bool closing = dot(d, v) < 0.0;
        const bool in_range = distance_squared <= farthest * farthest * (1.0 + 1e-6);
        return touching | (closing & in_range);
    }

    void schedule_pair(std::uint32_t i, std::uint32_t j) {
        const auto [a, b] = ordered_pair(i, j);
        const SweepBody& ba = s_.bodies[a];
        const SweepBody& bb = s_.bodies[b];
        if (!collides(ba.filter, bb.filter)) return;
        if (ba.immovable && bb.immovable) return;
        if (ba.parked && bb.parked) return;
        const double t0 = std::max(ba.t, bb.t);
        const Vec2 pa = position_at(a, t0);
        const Vec2 pb = position_at(b, t0);
        const Vec2 d = pa - pb;
        const Vec2 v = ba.velocity - bb.velocity;
        const double distance_squared = dot(d, d);
        const double inner = ba.radius + bb.radius - overlap_alarm_;
        if (inner > 0.0 && distance_squared < inner * inner) overlap_seen_ = true;
        // Not closing in, from apart or touching: toi_disk_disk would find
        // nothing, from these very values (touching, it needs an approach
        // speed far above rounding). Concentric disks have no direction to
        // close in along, so they are left to it.
        if (distance_squared > 0.0 && dot(d, v) >= 0.0) return;
        const auto hit = toi_disk_disk(pa, ba.radius, v, pb, bb.radius, dt_ - t0);
        if (!hit) return;
        s_.events.push(
            {std::min(t0 + hit->t, dt_), a, b, ba.version, bb.version, EventKind::disk_disk});
    }

    void schedule_static(std::uint32_t i, std::uint32_t s) {
        const SweepBody& body = s_.bodies[i];
        if (body.parked) return;
        const StaticState& st = w_.statics[s].state;
        if (!collides(body.filter, st.common.filter)) return;
        const double t_max = dt_ - body.t;
        const Proximity prox = proximity_disk_static(body.position, body.radius, st);
        if (prox.separation < -overlap_alarm_) overlap_seen_ = true;
        const auto hit = toi_disk_static(body.position, body.radius, body.velocity, st, t_max,
                                         w_.statics[s].seam_corners);
        if (!hit) return;
        s_.events.push(
            {std::min(body.t + hit->t, dt_), i, s, body.version, 0, EventKind::disk_static});
    }

    // New events for disk i after its path changed. `skip` is a disk whose
    // pair with i will be scheduled by that disk's own reschedule.
    void reschedule(std::uint32_t i, std::uint32_t skip) {
        const SweepBody& body = s_.bodies[i];
        broadphase_.candidates(
            i, swept_bounds(i), skip, [&](std::uint32_t j) { return may_meet(body, s_.bodies[j]); },
            [&](std::uint32_t j) { schedule_pair(i, j); },
            [&](std::uint32_t s) { schedule_static(i, s); });
    }

    bool is_stale(const SweepEvent& e) const {
        if (s_.bodies[e.a].version != e.version_a) return true;
        return e.kind == EventKind::disk_disk && s_.bodies[e.b].version != e.version_b;
    }

    // A disk's path changed: bump its version, which counts its impacts;
    // past its budget it is parked for the rest of the tick.
    void note_impact(std::uint32_t i) {
        SweepBody& b = s_.bodies[i];
        if (++b.version >= w_.def.max_impacts_per_disk && !b.parked) {
            b.parked = true;
            b.velocity = Vec2{};
            ++w_.stats.parked_disks;
        }
    }

    void resolve(const SweepEvent& e) {
        if (e.kind == EventKind::disk_static) {
            resolve_disk_static(e);
        } else {
            resolve_disk_disk(e);
        }
    }

    void resolve_disk_static(const SweepEvent& e) {
        advance(e.a, e.t);
        DiskState& d = w_.disks[e.a].state;
        const StaticSlot& s = w_.statics[e.b];
        const Proximity prox = proximity_disk_static(s_.bodies[e.a].position, d.radius, s.state);
        const Material& m = s.state.common.material;
        const double impulse = respond_disk_static(
            d.velocity, d.inverse_mass, prox.normal, d.material.restitution * m.restitution,
            d.material.friction * m.friction, s.state.common.response);
        w_.contacts.push_back({e.t, BodyId{e.a, w_.disks[e.a].generation},
                               ShapeRef{s.state.kind, e.b, s.generation}, prox.point, prox.normal,
                               impulse});
        s_.bodies[e.a].velocity = d.velocity;  // a parked disk has no events left
        note_impact(e.a);
        reschedule(e.a, UINT32_MAX);
    }

    void resolve_disk_disk(const SweepEvent& e) {
        advance(e.a, e.t);
        advance(e.b, e.t);
        DiskState& da = w_.disks[e.a].state;
        DiskState& db = w_.disks[e.b].state;
        SweepBody& ba = s_.bodies[e.a];
        SweepBody& bb = s_.bodies[e.b];
        const Proximity prox = proximity_disk_disk(ba.position, da.radius, bb.position, db.radius);
        const double e_ab = da.material.restitution * db.material.restitution;
        const double mu_ab = da.material.friction * db.material.friction;

        // A parked disk is an immovable, motionless obstacle for the rest of the tick.
        Vec2 va = ba.parked ? Vec2{} : da.velocity;
        Vec2 vb = bb.parked ? Vec2{} : db.velocity;
        const double impulse =
            respond_disk_disk(va, ba.parked ? 0.0 : da.inverse_mass, vb,
                              bb.parked ? 0.0 : db.inverse_mass, prox.normal, e_ab, mu_ab);
        w_.contacts.push_back({e.t, BodyId{e.a, w_.disks[e.a].generation},
                               ShapeRef{ShapeKind::disk, e.b, w_.disks[e.b].generation}, prox.point,
                               prox.normal, impulse});
        if (!ba.parked) {
            da.velocity = va;
            ba.velocity = va;
            note_impact(e.a);
        }
        if (!bb.parked) {
            db.velocity = vb;
            bb.velocity = vb;
            note_impact(e.b);
        }
        // Only a disk whose path changed needs new events; a disk parked
        // before this impact keeps its (motionless) path and its events.
        const bool a_changed = ba.version != e.version_a;
        const bool b_changed = bb.version != e.version_b;
        if (a_changed) reschedule(e.a, b_changed ? e.b : UINT32_MAX);
        if (b_changed) reschedule(e.b, UINT32_MAX);
    }

    // The tick ran out of impact budget: freeze the world at time t.
    void stop_everything_at(double t) {
        for (std::uint32_t i = 0; i < s_.bodies.size(); ++i) {
            if (!s_.bodies[i].active) continue;
            advance(i, t);
            s_.bodies[i].velocity = Vec2{};
        }
    }

    void finish() {
        for (std::uint32_t i = 0; i < s_.bodies.size(); ++i) {
            if (!s_.bodies[i].active) continue;
            advance(i, dt_);
            DiskState& d = w_.disks[i].state;
            d.position = s_.bodies[i].position;
            keep_in_domain(d);
        }
    }

    // Impacts can concentrate energy (a light disk between heavy ones) and a
    // disk in open space can fly away: the step ends with every disk inside
    // the domain (domain.hpp), so the next one stays exact. Disks inside it
    // are left exactly as they are.
    void keep_in_domain(DiskState& d) const {
        constexpr double kMax = domain::kMaxCoordinate;
        if (std::abs(d.position.x) > kMax) {
            d.position.x = std::clamp(d.position.x, -kMax, kMax);
            d.velocity.x = 0.0;
        }
        if (std::abs(d.position.y) > kMax) {
            d.position.y = std::clamp(d.position.y, -kMax, kMax);
            d.velocity.y = 0.0;
        }
        const double limit = domain::max_speed(d.radius, dt_);
        const double speed_squared = length_squared(d.velocity);
        // Slowed to a hair under the limit, so that rounding never puts it back over.
        if (speed_squared > limit * limit)
            d.velocity = d.velocity * (limit * (1.0 - 1e-9) / std::sqrt(speed_squared));
    }

    World::Impl& w_;
    Scratch& s_;
    Broadphase broadphase_;
    const double dt_;
    const double overlap_alarm_ = 0.5 * w_.def.overlap_tolerance;
    bool overlap_seen_ = false;
};

}  // namespace

bool run_sweep(World::Impl& world) {
    return Sweep(world).run();
}

}  // namespace carom::physics::detail
