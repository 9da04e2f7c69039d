#include "carom/game/match.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "carom/game/nearest.hpp"
#include "carom/physics/domain.hpp"
#include "carom/physics/state_hasher.hpp"

namespace carom::game {
namespace {

using physics::BodyId;
using physics::DiskDef;
using physics::Filter;

constexpr std::uint32_t kWallLayer = 1u << 0;
constexpr std::uint32_t kPlayerLayer = 1u << 1;
constexpr std::uint32_t kPuckLayer = 1u << 2;
constexpr Filter kPlayerFilter{kPlayerLayer, kWallLayer | kPlayerLayer | kPuckLayer};
constexpr Filter kPuckFilter{kPuckLayer, kWallLayer | kPlayerLayer | kPuckLayer};
constexpr Filter kSwitchedOff{0, 0};
constexpr double kTickSeconds = 1.0 / kTickRate;
// Speed of the random nudge pucks get at kick-off, so no two kick-offs are alike.
constexpr double kKickoffNudge = 3.0;
constexpr std::uint32_t kMaxImpactsPerDisk = 8;

// A map the loader accepts is never refused by the physics: every value the
// limits allow lies inside the physics domain (carom/physics/domain.hpp).
namespace pd = physics::domain;
static_assert(limits::kCoordinateMax + limits::kRadiusMax <= pd::kMaxCoordinate);
static_assert(limits::kRadiusMin >= pd::kMinRadius && limits::kRadiusMax <= pd::kMaxRadius);
static_assert(limits::kSpeedMax <= pd::max_speed(limits::kRadiusMin, kTickSeconds));
static_assert(kKickoffNudge * 1.5 <= pd::max_speed(limits::kRadiusMin, kTickSeconds));
static_assert(kTickSeconds <= pd::kMaxTickSeconds);

bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

// Which side of the goal line the field is on: +1 left of post_a→post_b, -1 right.
double field_side(const Goal& g, Vec2 field_centre) {
    return physics::cross(g.post_b - g.post_a, field_centre - g.post_a) > 0.0 ? 1.0 : -1.0;
}

// Whether `p` is strictly behind the goal line, between the posts.
bool behind_mouth(const Goal& g, double side, Vec2 p) {
    const Vec2 line = g.post_b - g.post_a;
    if (!(side * physics::cross(line, p - g.post_a) < 0.0)) return false;
    const double u = physics::dot(p - g.post_a, line);
    return u >= 0.0 && u <= physics::length_squared(line);
}

// Whether the straight path p0→p1 enters the goal through its mouth.
bool crosses_mouth(const Goal& g, double side, Vec2 p0, Vec2 p1) {
    const Vec2 line = g.post_b - g.post_a;
    const double s0 = side * physics::cross(line, p0 - g.post_a);
    const double s1 = side * physics::cross(line, p1 - g.post_a);
    if (!(s0 > 0.0 && s1 <= 0.0)) return false;
    const Vec2 crossing = p0 + (p1 - p0) * (s0 / (s0 - s1));
    const double u = physics::dot(crossing - g.post_a, line);
    return u >= 0.0 && u <= physics::length_squared(line);
}

physics::WorldDef world_def() {
    physics::WorldDef def;
    def.tick_seconds = kTickSeconds;
    // Players shoving a puck into a wall make inelastic chains of impacts that
    // shrink geometrically; past a few, the disk rests for the rest of the tick.
    def.max_impacts_per_disk = kMaxImpactsPerDisk;
    return def;
}

}  // namespace

CheckedMap::CheckedMap(Map map) {
    Result<CheckedMap> checked = check(std::move(map));
    if (!checked) throw std::invalid_argument(checked.error().message);
    map_ = std::move(checked->map_);
}

Result<CheckedMap> CheckedMap::check(Map map) {
    if (const Status valid = validate(map); !valid) return valid.error_in("map " + map.name);
    return CheckedMap(std::make_shared<const Map>(std::move(map)));
}

Match::Match(Map map, std::uint64_t seed, StaticsInHash statics_in_hash)
    : Match(CheckedMap(std::move(map)), seed, statics_in_hash) {}

Match::Match(CheckedMap checked, std::uint64_t seed, StaticsInHash statics_in_hash)
    : map_(std::move(checked)),
      seed_(seed),
      statics_in_hash_(statics_in_hash),
      world_(world_def()),
      rng_(seed) {
    build_world();
    events_.reserve(8 + pucks_.size());
    puck_positions_.resize(pucks_.size());
    for (Puck& puck : pucks_) {
        if (map().kickoff_nudge) world_.set_velocity(puck.body, kickoff_nudge());
    }
    // HaxBall's rule: the left (red) team kicks off first.
    if (map().uses_groups()) kickoff_team_ = Team::left;
}

Vec2 Match::kickoff_nudge() {
    const double x = (rng_.unit() * 2.0 - 1.0) * kKickoffNudge;
    const double y = (rng_.unit() * 2.0 - 1.0) * kKickoffNudge;
    return {x, y};
}

void Match::build_world() {
    const Tuning& t = map().tuning;
    const bool grouped = map().uses_groups();
    const Filter wall_filter =
        grouped ? Filter{groups::kWall, groups::kAll} : Filter{kWallLayer, 0xFFFFFFFFu};
    const physics::StaticDef wall{
        {t.wall_restitution, 0.0}, physics::WallResponse::bounce, wall_filter, 0};
    for (const Box& box : map().boxes)
        world_.create_box({box, wall});
    for (const Segment& segment : map().segments)
        world_.create_segment({segment, wall});
    for (const Wall& w : map().walls) {
        const physics::StaticDef common{{w.restitution, 0.0},
                                        physics::WallResponse::bounce,
                                        {w.collision.group, w.collision.mask},
                                        0};
        switch (w.shape) {
            case Wall::Shape::arc:
                world_.create_arc(
                    {{w.center, physics::length(w.a - w.center), w.a, w.b}, common, w.bias});
                break;
            case Wall::Shape::plane:
                world_.create_plane({{w.normal, w.offset}, common});
                break;
            default:
                world_.create_segment({{w.a, w.b}, common, w.bias});
                break;
        }
    }
    // A post is a circle of two half arcs: static, like the walls, so nothing
    // pushes it (an immovable disk would be pushed out of the walls it touches).
    for (const Post& post : map().posts) {
        const physics::StaticDef common{{post.restitution, 0.0},
                                        physics::WallResponse::bounce,
                                        {post.collision.group, post.collision.mask},
                                        0};
        const Vec2 east = post.position + Vec2{post.radius, 0.0};
        const Vec2 west = post.position - Vec2{post.radius, 0.0};
        world_.create_arc({{post.position, post.radius, east, west}, common, 0.0});
        world_.create_arc({{post.position, post.radius, west, east}, common, 0.0});
    }

    for (std::size_t i = 0; i < map().puck_spawns.size(); ++i) {
        DiskDef def;
        def.position = map().puck_spawns[i];
        def.radius = t.puck_radius;
        def.mass = t.puck_mass;
        def.material = {t.puck_restitution, 0.0};
        def.filter =
            grouped ? Filter{map().puck_collision.group, map().puck_collision.mask} : kPuckFilter;
        def.user_data = i;
        pucks_.push_back({world_.create_disk(def), std::nullopt});
    }
    players_.resize(2 * std::size_t{map().team_size});
    for (Slot slot = 0; slot < slot_count(); ++slot) {
        DiskDef def;
        def.position = parking_of(slot);
        def.radius = t.player_radius;
        def.mass = t.player_mass;
        def.material = {t.player_restitution, 0.0};
        def.filter = kSwitchedOff;
        def.user_data = 0x100u + slot;
        players_[slot].body = world_.create_disk(def);
    }
    for (std::size_t i = 0; i < map().discs.size(); ++i) {
        const Disc& disc = map().discs[i];
        DiskDef def;
        def.position = disc.position;
        def.velocity = disc.velocity;
        def.radius = disc.radius;
        def.mass = disc.mass;
        def.material = {disc.restitution, 0.0};
        def.filter = {disc.collision.group, disc.collision.mask};
        def.user_data = 0x200u + i;
        discs_.push_back(world_.create_disk(def));
    }
}

Filter Match::player_filter(Slot slot) const {
    if (!players_[slot].active) return kSwitchedOff;
    if (!map().uses_groups()) return kPlayerFilter;
    const Team team = team_of(slot);
    const bool barrier = phase_ == Phase::playing && kickoff_team_ && *kickoff_team_ != team;
    const Collision c = player_collision(team, barrier);
    return {c.group, c.mask};
}

void Match::update_player_filters() {
    for (Slot slot = 0; slot < slot_count(); ++slot)
        world_.set_filter(players_[slot].body, player_filter(slot));
}

Team Match::team_of(Slot slot) const {
    if (slot >= slot_count()) throw std::invalid_argument("slot out of range");
    return slot < map().team_size ? Team::left : Team::right;
}

Vec2 Match::spawn_of(Slot slot) const {
    const Team team = team_of(slot);
    std::uint32_t wanted = slot - (team == Team::left ? 0u : map().team_size);
    for (const Spawn& spawn : map().spawns) {
        if (spawn.team != team) continue;
        if (wanted == 0) return spawn.position;
        --wanted;
    }
    throw std::logic_error("validated map lacks a spawn");
}

Vec2 Match::parking_of(Slot slot) const {
    // Far outside any sensible field, one apart from the other so they never touch.
    return {-1000.0 - 10.0 * slot, -1000.0};
}

std::optional<Slot> Match::free_slot(std::optional<Team> preferred) const {
    auto first_free = [this](Team team) -> std::optional<Slot> {
        const Slot begin = team == Team::left ? 0 : map().team_size;
        for (Slot s = begin; s < begin + map().team_size; ++s) {
            if (!players_[s].active) return s;
        }
        return std::nullopt;
    };
    if (preferred) {
        if (auto s = first_free(*preferred)) return s;
    }
    std::array<std::uint32_t, 2> count{};
    for (Slot s = 0; s < slot_count(); ++s)
        count[index_of(team_of(s))] += players_[s].active;
    const Team fewer = count[1] < count[0] ? Team::right : Team::left;
    if (auto s = first_free(fewer)) return s;
    return first_free(other(fewer));
}

void Match::join(Slot slot, std::string name) {
    if (slot >= slot_count()) throw std::invalid_argument("join: slot out of range");
    Player& p = players_[slot];
    if (p.active) throw std::invalid_argument("join: slot is taken");
    p = Player{true, std::move(name), Input{}, 0, 0, p.body};
    world_.set_position(p.body, spawn_of(slot));
    world_.set_velocity(p.body, {});
    world_.set_filter(p.body, player_filter(slot));
}

void Match::leave(Slot slot) {
    if (slot >= slot_count() || !players_[slot].active)
        throw std::invalid_argument("leave: slot is empty");
    Player& p = players_[slot];
    p = Player{false, {}, Input{}, 0, 0, p.body};
    world_.set_position(p.body, parking_of(slot));
    world_.set_velocity(p.body, {});
    world_.set_filter(p.body, kSwitchedOff);
    for (Puck& puck : pucks_) {
        if (puck.last_kicker == slot) puck.last_kicker.reset();
    }
}

std::span<const MatchEvent> Match::step(std::span<const Input> inputs) {
    events_.clear();
    if (phase_ == Phase::finished) return events_;
    if (inputs.size() != slot_count()) throw std::invalid_argument("step: need one input per slot");

    apply_inputs(inputs);
    for (std::size_t i = 0; i < pucks_.size(); ++i)
        puck_positions_[i] = world_.disk(pucks_[i].body).position;
    world_.step();
    ++tick_;
    if (kickoff_team_ && phase_ == Phase::playing) end_kickoff_when_touched();

    if (phase_ == Phase::playing) {
        detect_goals(puck_positions_);
    } else if (phase_ == Phase::goal_pause && --phase_ticks_ == 0) {
        kickoff();
    }
    const bool score_reached = map().score_limit != 0 &&
                               (score_[0] >= map().score_limit || score_[1] >= map().score_limit);
    if (phase_ != Phase::finished && (ticks_left() == 0 || score_reached)) finish();
    return events_;
}

void Match::apply_inputs(std::span<const Input> inputs) {
    const Tuning& t = map().tuning;
    const double max_speed_squared = t.player_max_speed * t.player_max_speed;
    for (Slot slot = 0; slot < slot_count(); ++slot) {
        Player& p = players_[slot];
        if (!p.active) continue;
        p.last_input = inputs[slot];  // valid by construction (Input::from_bits)
        if (p.kick_cooldown > 0) --p.kick_cooldown;
        Vec2 v = world_.disk(p.body).velocity;
        const bool kicking = p.last_input.kick();
        const double acceleration = kicking && t.kicking_acceleration >= 0.0
                                        ? t.kicking_acceleration
                                        : t.player_acceleration;
        const double drag = kicking && t.kicking_drag >= 0.0 ? t.kicking_drag : t.player_drag;
        if (phase_ == Phase::playing) v += p.last_input.vector() * (acceleration * kTickSeconds);
        v -= v * (drag * kTickSeconds);
        const double speed_squared = physics::length_squared(v);
        if (speed_squared > max_speed_squared)
            v = v * (t.player_max_speed / std::sqrt(speed_squared));
        world_.set_velocity(p.body, v);
    }
    for (const Puck& puck : pucks_) {
        const Vec2 v = world_.disk(puck.body).velocity;
        world_.set_velocity(puck.body, v - v * (t.puck_drag * kTickSeconds));
    }
    for (std::size_t i = 0; i < discs_.size(); ++i) {
        const Vec2 v = world_.disk(discs_[i]).velocity;
        world_.set_velocity(discs_[i], v - v * (map().discs[i].drag * kTickSeconds));
    }
    if (phase_ != Phase::playing) return;
    for (Slot slot = 0; slot < slot_count(); ++slot) {
        const Player& p = players_[slot];
        if (p.active && p.last_input.kick() && p.kick_cooldown == 0) kick(slot);
    }
}

void Match::kick(Slot slot) {
    const Tuning& t = map().tuning;
    Player& p = players_[slot];
    const Vec2 from = world_.disk(p.body).position;
    const double reach = t.player_radius + t.puck_radius + t.kick_reach;
    const std::optional<std::uint32_t> nearest = nearest_puck(from, reach);
    if (!nearest) return;
    Puck& puck = pucks_[*nearest];
    const physics::DiskState& d = world_.disk(puck.body);
    const Vec2 fallback = p.last_input.moving() ? p.last_input.vector() : Vec2{1.0, 0.0};
    const Vec2 direction = physics::normalize_or(d.position - from, fallback);
    Vec2 velocity = d.velocity + direction * t.kick_speed;
    // Kicks add up, but not past the physics domain: there the puck stops gaining speed.
    const double limit = pd::max_speed(t.puck_radius, kTickSeconds);
    const double speed_squared = physics::length_squared(velocity);
    if (speed_squared > limit * limit)
        velocity = velocity * (limit * (1.0 - 1e-9) / std::sqrt(speed_squared));
    world_.set_velocity(puck.body, velocity);
    puck.last_kicker = slot;
    p.kick_cooldown = t.kick_cooldown_ticks;
    if (kickoff_team_) {
        kickoff_team_.reset();
        update_player_filters();
    }
}

// The kick-off ends when a puck is first touched (kicked, or hit by anything).
void Match::end_kickoff_when_touched() {
    for (const physics::Contact& c : world_.contacts()) {
        for (const Puck& puck : pucks_) {
            if (c.disk == puck.body || (c.other.is_disk() && c.other.body() == puck.body)) {
                kickoff_team_.reset();
                update_player_filters();
                return;
            }
        }
    }
}

void Match::detect_goals(std::span<const Vec2> before) {
    // A puck scores when its centre crosses the mouth, or when it touched
    // something behind the mouth during the tick: a hard shot can enter the
    // goal, hit the back and come out again within one tick.
    const Vec2 centre = map().size * 0.5;
    const auto contacts = world_.contacts();
    for (std::size_t i = 0; i < pucks_.size(); ++i) {
        const physics::BodyId body = pucks_[i].body;
        const Vec2 after = world_.disk(body).position;
        for (const Goal& goal : map().goals) {
            const double side = field_side(goal, centre);
            bool scored = crosses_mouth(goal, side, before[i], after);
            if (!scored &&
                side * physics::cross(goal.post_b - goal.post_a, before[i] - goal.post_a) > 0.0) {
                for (const physics::Contact& c : contacts) {
                    const bool involves =
                        c.disk == body || (c.other.is_disk() && c.other.body() == body);
                    if (involves && behind_mouth(goal, side, c.point)) {
                        scored = true;
                        break;
                    }
                }
            }
            if (!scored) continue;
            const Team scorer_team = other(goal.defender);
            ++score_[index_of(scorer_team)];
            const std::optional<Slot> kicker = pucks_[i].last_kicker;
            const bool own_goal = kicker && team_of(*kicker) != scorer_team;
            const std::optional<Slot> scorer = own_goal ? std::nullopt : kicker;
            if (scorer) ++players_[*scorer].goals;
            events_.push_back({MatchEvent::Kind::goal, tick_, scorer_team,
                               static_cast<std::uint32_t>(i), scorer, false,
                               own_goal ? kicker : std::nullopt});
            phase_ = Phase::goal_pause;
            phase_ticks_ = kGoalPauseTicks;
            // The barriers rise for the scorers at the kick-off (player_filter).
            if (map().uses_groups()) kickoff_team_ = goal.defender;
        }
    }
}

void Match::kickoff() {
    for (Slot slot = 0; slot < slot_count(); ++slot) {
        if (!players_[slot].active) continue;
        world_.set_position(players_[slot].body, spawn_of(slot));
        world_.set_velocity(players_[slot].body, {});
    }
    for (std::size_t i = 0; i < pucks_.size(); ++i) {
        world_.set_position(pucks_[i].body, map().puck_spawns[i]);
        world_.set_velocity(pucks_[i].body, map().kickoff_nudge ? kickoff_nudge() : Vec2{});
        pucks_[i].last_kicker.reset();
    }
    if (map().kickoff_resets_discs) {
        for (std::size_t i = 0; i < discs_.size(); ++i) {
            world_.set_position(discs_[i], map().discs[i].position);
            world_.set_velocity(discs_[i], map().discs[i].velocity);
        }
    }
    phase_ = Phase::playing;
    phase_ticks_ = 0;
    // The team that conceded (kickoff_team_, since the goal) kicks off: the
    // barriers rise for the others (player_filter reads the phase).
    if (kickoff_team_) update_player_filters();
    events_.push_back({MatchEvent::Kind::kickoff, tick_, Team::left, 0, std::nullopt, false});
}

void Match::finish() {
    phase_ = Phase::finished;
    phase_ticks_ = 0;
    const bool draw = score_[0] == score_[1];
    const Team winner = score_[1] > score_[0] ? Team::right : Team::left;
    events_.push_back({MatchEvent::Kind::end, tick_, winner, 0, std::nullopt, draw});
}

std::uint64_t ticks_left(const Map& map, std::uint64_t tick) {
    const std::uint64_t total = std::uint64_t{map.match_seconds} * kTickRate;
    return tick >= total ? 0 : total - tick;
}

std::uint64_t Match::ticks_left() const {
    return game::ticks_left(map(), tick_);
}

const physics::DiskState& Match::player_disk(Slot slot) const {
    return world_.disk(players_.at(slot).body);
}

const physics::DiskState& Match::puck_disk(std::uint32_t puck) const {
    return world_.disk(pucks_.at(puck).body);
}

const physics::DiskState& Match::disc_disk(std::uint32_t disc) const {
    return world_.disk(discs_.at(disc));
}

std::optional<std::uint32_t> Match::nearest_puck(Vec2 point, double within) const {
    return nearest_index(
        puck_count(), point, [this](std::uint32_t i) { return puck_disk(i).position; }, within);
}

const Goal& Match::goal_of(Team defender) const {
    return map().goals[0].defender == defender ? map().goals[0] : map().goals[1];
}

MatchState Match::save() const {
    MatchState s;
    s.tick = tick_;
    s.phase = phase_;
    s.phase_ticks = phase_ticks_;
    s.score = score_;
    s.rng = rng_.state();
    s.kickoff_team = kickoff_team_;
    for (const Player& p : players_) {
        const physics::DiskState& d = world_.disk(p.body);
        s.players.push_back(
            {p.active, p.name, p.last_input, p.kick_cooldown, p.goals, {d.position, d.velocity}});
    }
    for (const Puck& puck : pucks_) {
        const physics::DiskState& d = world_.disk(puck.body);
        s.pucks.push_back({{d.position, d.velocity}, puck.last_kicker});
    }
    for (const physics::BodyId disc : discs_) {
        const physics::DiskState& d = world_.disk(disc);
        s.discs.push_back({d.position, d.velocity});
    }
    return s;
}

void Match::restore(const MatchState& s) {
    if (s.players.size() != players_.size())
        throw std::invalid_argument("restore: the state has " + std::to_string(s.players.size()) +
                                    " player slots, the map " + std::to_string(players_.size()));
    if (s.pucks.size() != pucks_.size())
        throw std::invalid_argument("restore: the state has " + std::to_string(s.pucks.size()) +
                                    " pucks, the map " + std::to_string(pucks_.size()));
    if (s.discs.size() != discs_.size())
        throw std::invalid_argument("restore: the state has " + std::to_string(s.discs.size()) +
                                    " discs, the map " + std::to_string(discs_.size()));
    if (s.phase != Phase::playing && s.phase != Phase::goal_pause && s.phase != Phase::finished)
        throw std::invalid_argument("restore: unknown phase");
    if (s.phase == Phase::goal_pause && s.phase_ticks == 0)
        throw std::invalid_argument("restore: goal pause with no ticks left");
    // Checked before anything changes, so a refused state leaves the match as it was.
    const auto in_domain = [](const DiskMotion& d, double radius) {
        return std::abs(d.position.x) <= pd::kMaxCoordinate &&
               std::abs(d.position.y) <= pd::kMaxCoordinate &&
               std::hypot(d.velocity.x, d.velocity.y) <= pd::max_speed(radius, kTickSeconds);
    };
    for (const PlayerState& p : s.players) {
        if (!finite(p.disk.position) || !finite(p.disk.velocity))
            throw std::invalid_argument("restore: non-finite player state");
        if (!in_domain(p.disk, map().tuning.player_radius))
            throw std::invalid_argument("restore: a player outside the physics domain");
    }
    for (const PuckState& p : s.pucks) {
        if (!finite(p.disk.position) || !finite(p.disk.velocity))
            throw std::invalid_argument("restore: non-finite puck state");
        if (!in_domain(p.disk, map().tuning.puck_radius))
            throw std::invalid_argument("restore: a puck outside the physics domain");
        if (p.last_kicker && *p.last_kicker >= slot_count())
            throw std::invalid_argument("restore: puck kicker out of range");
    }
    for (std::size_t i = 0; i < s.discs.size(); ++i) {
        if (!finite(s.discs[i].position) || !finite(s.discs[i].velocity))
            throw std::invalid_argument("restore: non-finite disc state");
        if (!in_domain(s.discs[i], map().discs[i].radius))
            throw std::invalid_argument("restore: a disc outside the physics domain");
    }
    if (s.kickoff_team && !map().uses_groups())
        throw std::invalid_argument("restore: a kick-off team on a map without barriers");
    tick_ = s.tick;
    phase_ = s.phase;
    kickoff_team_ = s.kickoff_team;
    phase_ticks_ = s.phase_ticks;
    score_ = s.score;
    rng_ = Rng(s.rng);
    for (std::size_t i = 0; i < players_.size(); ++i) {
        const PlayerState& snap = s.players[i];
        Player& p = players_[i];
        p = Player{snap.active, snap.name, snap.last_input, snap.kick_cooldown, snap.goals, p.body};
        world_.set_position(p.body, snap.disk.position);
        world_.set_velocity(p.body, snap.disk.velocity);
        world_.set_filter(p.body, player_filter(static_cast<Slot>(i)));
    }
    for (std::size_t i = 0; i < pucks_.size(); ++i) {
        world_.set_position(pucks_[i].body, s.pucks[i].disk.position);
        world_.set_velocity(pucks_[i].body, s.pucks[i].disk.velocity);
        pucks_[i].last_kicker = s.pucks[i].last_kicker;
    }
    for (std::size_t i = 0; i < discs_.size(); ++i) {
        world_.set_position(discs_[i], s.discs[i].position);
        world_.set_velocity(discs_[i], s.discs[i].velocity);
    }
    world_.set_tick(s.tick);
    events_.clear();
}

std::uint64_t Match::state_hash() const {
    physics::StateHasher h;
    if (statics_in_hash_ == StaticsInHash::folded) {
        h.add(world_.moving_hash());
        h.add(world_.statics_digest());
    } else {
        h.add(world_.state_hash());
    }
    h.add(tick_);
    h.add(static_cast<std::uint32_t>(phase_));
    h.add(phase_ticks_);
    h.add(score_[0]);
    h.add(score_[1]);
    h.add(rng_.state());
    for (const Player& p : players_) {
        h.add(p.active);
        h.add(static_cast<std::uint64_t>(p.name.size()));
        for (const char c : p.name)
            h.add(static_cast<std::uint32_t>(static_cast<unsigned char>(c)));
        h.add(static_cast<std::uint32_t>(p.last_input.bits()));
        h.add(p.kick_cooldown);
        h.add(p.goals);
    }
    for (const Puck& puck : pucks_) {
        h.add(puck.last_kicker.has_value());
        h.add(puck.last_kicker.value_or(0));
    }
    // Only maps with collision groups have kick-offs to hash: others hash as before.
    if (map().uses_groups()) {
        h.add(kickoff_team_.has_value());
        h.add(static_cast<std::uint32_t>(kickoff_team_ ? index_of(*kickoff_team_) : 0));
    }
    return h.digest();
}

}  // namespace carom::game
