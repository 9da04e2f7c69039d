// The sweep: event-driven continuous collision within one tick.
//
// Each disk keeps its own clock. Candidate pairs come from the broadphase
// over swept bounds; every pair whose time of impact falls inside the tick
// becomes an event in a min-heap ordered by (time, disk, kind, other), a
// total order, so the same world always resolves the same impacts in the
// same order. Resolving an event advances its disks to that time, applies
// the response and recomputes their events; events computed from an older
// path are recognised by version numbers and skipped.
#include <algorithm>
#include <cmath>

#include "carom/physics/proximity.hpp"
#include "carom/physics/toi.hpp"
#include "response.hpp"
#include "world_impl.hpp"

namespace carom::physics::detail {
namespace {

bool later(const SweepEvent& x, const SweepEvent& y) {
    if (x.t != y.t) return x.t > y.t;
    if (x.a != y.a) return x.a > y.a;
    if (x.kind != y.kind) return x.kind > y.kind;
    return x.b > y.b;
}

class Sweep {
public:
    explicit Sweep(World::Impl& world)
        : w_(world),
          bodies_(world.scratch.bodies),
          events_(world.scratch.events),
          boxes_(world.scratch.boxes),
          present_(world.scratch.present),
          moved_(world.scratch.moved),
          cells_(world.scratch.cells),
          moved_grid_(world.scratch.moved_grid),
          dt_(world.def.tick_seconds) {}

    bool run() {
        start();
        std::uint32_t resolved = 0;
        const std::uint32_t budget = tick_budget();
        while (!events_.empty()) {
            std::pop_heap(events_.begin(), events_.end(), later);
            const SweepEvent e = events_.back();
            events_.pop_back();
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
    std::uint32_t tick_budget() const {
        const std::size_t per_tick =
            std::size_t{w_.def.max_impacts_per_disk_average} * w_.disks.size();
        return static_cast<std::uint32_t>(std::clamp<std::size_t>(per_tick, 1024, UINT32_MAX));
    }

    void start() {
        const std::size_t n = w_.disks.size();
        bodies_.assign(n, SweepBody{});
        boxes_.resize(n);
        present_.assign(n, 0u);
        moved_.assign(n, 0u);
        events_.clear();
        double extent_sum = 0.0;
        std::size_t active = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            const DiskSlot& slot = w_.disks[i];
            if (!slot.alive) continue;
            SweepBody& b = bodies_[i];
            b.position = slot.state.position;
            b.velocity = slot.state.velocity;
            b.active = true;
            present_[i] = 1;
            const Aabb box = swept_bounds(i);
            boxes_[i] = box;
            extent_sum += std::max(box.max.x - box.min.x, box.max.y - box.min.y);
            ++active;
        }
        // Cells about twice a typical swept box: most disks touch one to four
        // cells. The cell size only affects speed, never the result.
        const double cell =
            active == 0 ? 1.0 : std::max(2.0 * extent_sum / static_cast<double>(active), 1e-6);
        cells_.build(boxes_, present_, cell);
        moved_grid_.reset(cell, n);
        cells_.for_each_pair([&](std::uint32_t i, std::uint32_t j) { schedule_pair(i, j); });
        for (std::uint32_t i = 0; i < n; ++i) {
            if (present_[i]) schedule_statics(i, boxes_[i]);
        }
    }

    // Bounds of disk i from its clock to the end of the tick, padded so that
    // rounding in the advance can never move it outside.
    Aabb swept_bounds(std::uint32_t i) const {
        const SweepBody& b = bodies_[i];
        const Vec2 end = b.position + b.velocity * (dt_ - b.t);
        const double r = w_.disks[i].state.radius;
        const double pad = r + 1e-9 * (1.0 + std::abs(b.position.x) + std::abs(b.position.y) +
                                       std::abs(end.x) + std::abs(end.y));
        return {{std::min(b.position.x, end.x) - pad, std::min(b.position.y, end.y) - pad},
                {std::max(b.position.x, end.x) + pad, std::max(b.position.y, end.y) + pad}};
    }

    Vec2 position_at(std::uint32_t i, double t) const {
        const SweepBody& b = bodies_[i];
        return b.position + b.velocity * (t - b.t);
    }

    void advance(std::uint32_t i, double t) {
        SweepBody& b = bodies_[i];
        b.position = position_at(i, t);
        b.t = t;
    }

    void push(const SweepEvent& e) {
        events_.push_back(e);
        std::push_heap(events_.begin(), events_.end(), later);
    }

    void schedule_pair(std::uint32_t i, std::uint32_t j) {
        const std::uint32_t a = std::min(i, j);
        const std::uint32_t b = std::max(i, j);
        const DiskState& da = w_.disks[a].state;
        const DiskState& db = w_.disks[b].state;
        if (!collides(da.filter, db.filter)) return;
        if (da.inverse_mass == 0.0 && db.inverse_mass == 0.0) return;
        const SweepBody& ba = bodies_[a];
        const SweepBody& bb = bodies_[b];
        if (ba.parked && bb.parked) return;
        const double t0 = std::max(ba.t, bb.t);
        const Vec2 pa = position_at(a, t0);
        const Vec2 pb = position_at(b, t0);
        const double inner = da.radius + db.radius - overlap_alarm_;
        if (inner > 0.0 && length_squared(pa - pb) < inner * inner) overlap_seen_ = true;
        const auto hit =
            toi_disk_disk(pa, da.radius, ba.velocity - bb.velocity, pb, db.radius, dt_ - t0);
        if (!hit) return;
        push({std::min(t0 + hit->t, dt_), a, b, ba.version, bb.version, EventKind::disk_disk});
    }

    void schedule_statics(std::uint32_t i, const Aabb& box) {
        const SweepBody& body = bodies_[i];
        if (body.parked) return;
        const DiskState& d = w_.disks[i].state;
        w_.for_each_static_near(box, [&](std::uint32_t s) {
            const StaticState& st = w_.statics[s].state;
            if (!collides(d.filter, st.common.filter)) return;
            const double t_max = dt_ - body.t;
            const Proximity prox = st.kind == ShapeKind::box
                                       ? proximity_disk_box(body.position, d.radius, st.box)
                                       : proximity_disk_segment(body.position, d.radius, st.segment);
            if (prox.separation < -overlap_alarm_) overlap_seen_ = true;
            const auto hit = st.kind == ShapeKind::box
                                 ? toi_disk_box(body.position, d.radius, body.velocity, st.box, t_max)
                                 : toi_disk_segment(body.position, d.radius, body.velocity,
                                                    st.segment, t_max);
            if (!hit) return;
            push({std::min(body.t + hit->t, dt_), i, s, body.version, 0, EventKind::disk_static});
        });
    }

    // New events for disk i after its path changed. `skip` is a disk whose
    // pair with i will be scheduled by that disk's own reschedule.
    void reschedule(std::uint32_t i, std::uint32_t skip) {
        if (moved_[i]) {
            moved_grid_.remove(i);
        } else {
            moved_[i] = 1;
        }
        const Aabb box = swept_bounds(i);
        cells_.query(box, [&](std::uint32_t j) {
            if (!moved_[j] && j != skip) schedule_pair(i, j);
        });
        moved_grid_.query(box, [&](std::uint32_t j) {
            if (j != skip) schedule_pair(i, j);
        });
        moved_grid_.insert(i, box);
        schedule_statics(i, box);
    }

    bool is_stale(const SweepEvent& e) const {
        if (bodies_[e.a].version != e.version_a) return true;
        return e.kind == EventKind::disk_disk && bodies_[e.b].version != e.version_b;
    }

    // A disk's path changed: bump its version and count the impact; past its
    // budget it is parked for the rest of the tick.
    void note_impact(std::uint32_t i) {
        SweepBody& b = bodies_[i];
        ++b.version;
        if (++b.impacts >= w_.def.max_impacts_per_disk && !b.parked) {
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
        const Proximity prox = s.state.kind == ShapeKind::box
                                   ? proximity_disk_box(bodies_[e.a].position, d.radius, s.state.box)
                                   : proximity_disk_segment(bodies_[e.a].position, d.radius,
                                                            s.state.segment);
        const Material& m = s.state.common.material;
        const double impulse = respond_disk_static(
            d.velocity, d.inverse_mass, prox.normal, d.material.restitution * m.restitution,
            d.material.friction * m.friction, s.state.common.response);
        w_.contacts.push_back({e.t, BodyId{e.a, w_.disks[e.a].generation},
                               ShapeRef{s.state.kind, e.b, s.generation}, prox.point, prox.normal,
                               impulse});
        bodies_[e.a].velocity = d.velocity;  // a parked disk has no events left
        note_impact(e.a);
        reschedule(e.a, UINT32_MAX);
    }

    void resolve_disk_disk(const SweepEvent& e) {
        advance(e.a, e.t);
        advance(e.b, e.t);
        DiskState& da = w_.disks[e.a].state;
        DiskState& db = w_.disks[e.b].state;
        SweepBody& ba = bodies_[e.a];
        SweepBody& bb = bodies_[e.b];
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
                               ShapeRef{ShapeKind::disk, e.b, w_.disks[e.b].generation},
                               prox.point, prox.normal, impulse});
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
        for (std::uint32_t i = 0; i < bodies_.size(); ++i) {
            if (!bodies_[i].active) continue;
            advance(i, t);
            bodies_[i].velocity = Vec2{};
        }
    }

    void finish() {
        for (std::uint32_t i = 0; i < bodies_.size(); ++i) {
            if (!bodies_[i].active) continue;
            advance(i, dt_);
            w_.disks[i].state.position = bodies_[i].position;
        }
    }

    World::Impl& w_;
    std::vector<SweepBody>& bodies_;
    std::vector<SweepEvent>& events_;
    std::vector<Aabb>& boxes_;
    std::vector<std::uint8_t>& present_;
    std::vector<std::uint8_t>& moved_;
    CellGrid& cells_;         // swept bounds at the start of the tick
    HashGrid& moved_grid_;    // current swept bounds of disks whose path changed since
    const double dt_;
    const double overlap_alarm_ = 0.5 * w_.def.overlap_tolerance;
    bool overlap_seen_ = false;
};

}  // namespace

bool run_sweep(World::Impl& world) { return Sweep(world).run(); }

}  // namespace carom::physics::detail
